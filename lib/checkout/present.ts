import { findCurrency } from "@/lib/currencies/registry";
import { formatAmountShort, parseStoredAmount } from "@/lib/money";

/** Display helpers shared by the checkout page's server and client parts. */
export function shortAmount(wire: string | null): string {
  return wire === null ? "" : formatAmountShort(parseStoredAmount(wire));
}

/**
 * Money for people: "100.00 EUR", "10.125 EUR", "0.00166989 BTC". Fiat shows at least its minor
 * unit (cents); past it, only the digits an amount really has (fiat carries up to 8, as the public API's).
 */
export function displayAmount(wire: string | null, code: string | null): string {
  if (wire === null || code === null) return "";
  const [whole, fraction = ""] = shortAmount(wire).split(".");
  const digits = fraction.padEnd(findCurrency(code)?.minorUnit ?? 0, "0");
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
