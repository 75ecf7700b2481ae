import { formatMoney } from "@/lib/format-money";

/**
 * Money on the dashboard, by the one rule for people (lib/format-money): fiat to its cents, crypto to
 * the digits it has, grouped in threes ("12 345.60 EUR"). Takes the wire text or 10^-8 units.
 */
export function dashboardAmount(amount: string | bigint | null, code: string | null): string {
  if (amount === null || code === null) return "";
  return formatMoney(amount, code).text;
}
