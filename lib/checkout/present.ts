import { findCurrency } from "@/lib/currencies/registry";
import { formatAmountShort, parseStoredAmount } from "@/lib/money";

/** Display helpers shared by the checkout page's server and client parts. */
export function shortAmount(wire: string | null): string {
  return wire === null ? "" : formatAmountShort(parseStoredAmount(wire));
}

/** Money in a currency's own precision for people: "100.00 EUR", "0.00166989 BTC". */
export function displayAmount(wire: string | null, code: string | null): string {
  if (wire === null || code === null) return "";
  const precision = findCurrency(code)?.precision ?? 8;
  const [whole, fraction = ""] = shortAmount(wire).split(".");
  const digits = findCurrency(code)?.kind === "fiat" ? fraction.padEnd(precision, "0") : fraction;
  return `${whole}${digits ? `.${digits}` : ""} ${code}`;
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
