import { formatMoney } from "@/lib/format-money";
import type { PaymentLinkStatus } from "@/lib/schemas/payment-links";

/** How the dashboard names a link's state. */
export const PAYMENT_LINK_STATUS_LABELS: Record<PaymentLinkStatus, string> = {
  active: "Active",
  inactive: "Deactivated",
  expired: "Expired",
  used_up: "All uses taken",
};

/** A link's amount as the merchant set it: "25.00 EUR", "10.00 to 500.00 EUR", "Any amount from 10.00 EUR". */
export function linkAmountText(link: {
  amount: string | null;
  min_amount: string | null;
  max_amount: string | null;
  currency: string;
}): string {
  const money = (units: string) => formatMoney(units, link.currency).exact;
  if (link.amount !== null) return money(link.amount);
  if (link.min_amount !== null && link.max_amount !== null)
    return `${formatMoney(link.min_amount, link.currency).exact.replace(` ${link.currency}`, "")} to ${money(link.max_amount)}`;
  if (link.max_amount !== null) return `Any amount up to ${money(link.max_amount)}`;
  if (link.min_amount !== null) return `Any amount from ${money(link.min_amount)}`;
  return `Any amount in ${link.currency}`;
}

/** "3 of 10" with a limit, "3" without. */
export function usesText(link: { uses: number; max_uses: number | null }): string {
  return link.max_uses === null ? String(link.uses) : `${link.uses} of ${link.max_uses}`;
}
