import "server-only";

import { formatAmount } from "@/lib/money";
import type { PaymentLinkResponse, SenderType } from "@/lib/schemas/payment-links";
import type { PaymentLinkRecord, PaymentLinkRow } from "./link-usage";

/** The link's public page: KASSA_PUBLIC_URL (or the request's origin) + /link/<token>. */
export function paymentLinkUrl(baseUrl: string, token: string): string {
  return `${baseUrl.replace(/\/$/, "")}/link/${token}`;
}

/** The payer types a link allows, in the API's words. */
export function senderTypesOf(link: Pick<PaymentLinkRow, "allowsNatural" | "allowsLegal">): SenderType[] {
  return [
    ...(link.allowsNatural ? ["natural" as const] : []),
    ...(link.allowsLegal ? ["legal" as const] : []),
  ];
}

const optionalAmount = (units: bigint | null) => (units === null ? null : formatAmount(units));

/** The `PaymentLink` object of the API (and the dashboard's endpoints). */
export function toPaymentLinkResponse(record: PaymentLinkRecord, baseUrl: string): PaymentLinkResponse {
  const { link } = record;
  return {
    id: link.id,
    url: paymentLinkUrl(baseUrl, link.token),
    title: link.title,
    description: link.description,
    currency: link.currency,
    amount: optionalAmount(link.amount),
    min_amount: optionalAmount(link.minAmount),
    max_amount: optionalAmount(link.maxAmount),
    sender_types: senderTypesOf(link),
    url_success: link.urlSuccess,
    url_failed: link.urlFailed,
    expires_at: link.expiresAt?.toISOString() ?? null,
    max_uses: link.maxUses,
    status: record.status,
    uses: record.paidInvoices + record.openInvoices,
    paid_invoices: record.paidInvoices,
    open_invoices: record.openInvoices,
    received: formatAmount(record.received),
    created_at: link.createdAt.toISOString(),
    deactivated_at: link.deactivatedAt?.toISOString() ?? null,
  };
}
