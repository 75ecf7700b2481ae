import { findCurrency } from "@/lib/currencies/registry";
import { type DisplayedMoney, formatMoney } from "@/lib/format-money";
import { formatAmount, formatAmountShort, parseStoredAmount } from "@/lib/money";

/** Display helpers shared by the checkout page's server and client parts. */
export function shortAmount(wire: string | null): string {
  return wire === null ? "" : formatAmountShort(parseStoredAmount(wire));
}

/** Money for people (lib/format-money): "1 297.87 EUR", "0.00166989 BTC", digits grouped. */
export function displayAmount(wire: string | null, code: string | null): string {
  if (wire === null || code === null) return "";
  return formatMoney(wire, code).text;
}

/** displayAmount's figure without the currency code, for a row that names the currency already. */
export function displayDigits(wire: string, code: string): string {
  return formatMoney(wire, code).text.slice(0, -(code.length + 1));
}

/** Money on the checkout: as displayAmount, the currency named as the customer knows it. */
export function customerAmount(wire: string | null, code: string | null): string {
  return customerMoney(wire, code)?.text ?? "";
}

/** customerAmount with its exact digits, for a title when the figure shown is rounded. */
export function customerMoney(wire: string | null, code: string | null): DisplayedMoney | null {
  if (wire === null || code === null) return null;
  const money = formatMoney(wire, code);
  const named = (text: string) => `${text.slice(0, -code.length)}${customerCode(code)}`;
  return { ...money, text: named(money.text), exact: named(money.exact) };
}

/**
 * A currency as wallets and exchanges name it: Kassa's codes for tokens (USDTE, USDTT) say which
 * network in a way no customer knows, so they read as the token plus its network standard.
 */
export function customerCode(code: string): string {
  const names: Record<string, string> = {
    USDTE: "USDT (ERC-20)",
    USDTT: "USDT (TRC-20)",
    USDC: "USDC (ERC-20)",
  };
  return names[code] ?? code;
}

export function networkName(code: string | null): string {
  const network = code ? findCurrency(code)?.network : null;
  if (!network) return "";
  const names: Record<string, string> = {
    bitcoin: "Bitcoin",
    litecoin: "Litecoin",
    bitcoincash: "Bitcoin Cash",
    dogecoin: "Dogecoin",
    ethereum: "Ethereum",
    tron: "Tron",
    ripple: "XRP Ledger",
  };
  return names[network] ?? network;
}

export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:";
  } catch {
    return false;
  }
}

export function formatClock(totalSeconds: number): string {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  const minutes = Math.floor(seconds / 60);
  return `${String(minutes).padStart(2, "0")}:${String(seconds % 60).padStart(2, "0")}`;
}

/**
 * Whether a payment URI names a scheme a wallet registers (bitcoin:, ethereum:, a CashAddr prefix).
 * Tron has none and XRP's `rADDR?dt=` is not a URL: as a link either would be relative and leave
 * the checkout for a page that does not exist, so they get no "Open in wallet" button.
 */
export function hasUriScheme(uri: string | null): boolean {
  return uri !== null && /^[a-z][a-z0-9+.-]*:/i.test(uri);
}

/**
 * Whether the customer should still send money: an open invoice (pending, or processing a payment
 * already seen) with a remainder left after what has arrived. A closed invoice owes nothing more
 * here: its page says what happens to what was paid.
 */
export function isStillOwed(view: {
  status: string;
  remaining_amount: string | null;
  paid_amount: string;
  payments: readonly unknown[];
}): boolean {
  return (
    (view.status === "pending" || view.status === "processing") &&
    view.remaining_amount !== null &&
    parseStoredAmount(view.remaining_amount) > 0n &&
    // A payment to the address shown before a switch of coins is not in `paid_amount` (another coin).
    (parseStoredAmount(view.paid_amount) > 0n || view.payments.length > 0)
  );
}

/**
 * What arrived, summed per coin: "0.0015 BTC", or "0.0015 BTC and 0.2 LTC" when part was sent to the
 * address shown before the customer switched coins. Empty when nothing did.
 */
export function receivedText(payments: readonly { amount: string; currency: string }[]): string {
  const sums = new Map<string, bigint>();
  for (const p of payments) sums.set(p.currency, (sums.get(p.currency) ?? 0n) + parseStoredAmount(p.amount));
  return [...sums].map(([code, sum]) => customerAmount(formatAmount(sum), code)).join(" and ");
}
