import { displayAmount } from "@/lib/checkout/present";
import { groupDigits } from "@/lib/digits";
import { formatAmount } from "@/lib/money";

/**
 * Money on the dashboard: displayAmount's digits (fiat to its cents, crypto as exact as it is), the
 * whole part grouped in threes ("12 345.60 EUR"). Takes the wire text or 10^-8 units.
 */
export function dashboardAmount(amount: string | bigint | null, code: string | null): string {
  if (amount === null) return "";
  return groupDigits(displayAmount(typeof amount === "bigint" ? formatAmount(amount) : amount, code));
}
