import "server-only";

import type { PaymentLinkStatus } from "@/lib/schemas/payment-links";

/**
 * Why a link takes no visit, in words for the customer holding it (its page and its public endpoint's
 * 410 say the same). A link whose every use is held by unpaid invoices may free up: it says so.
 */
export function unavailableMessage(input: {
  status: Exclude<PaymentLinkStatus, "active">;
  merchantName: string;
  openInvoices: number;
}): string {
  const shop = input.merchantName;
  if (input.status === "inactive")
    return `${shop} has turned this payment link off, so it cannot be paid any more. Ask ${shop} for a new link.`;
  if (input.status === "expired")
    return `This payment link has expired, so it cannot be paid any more. Ask ${shop} for a new link.`;
  if (input.openInvoices > 0)
    return `This payment link is taken by other customers paying right now. Places that are not paid in time free up again: try again in a few minutes, or ask ${shop}.`;
  return `This payment link has been used as many times as ${shop} allowed, so it cannot be paid any more. Ask ${shop} for a new link.`;
}
