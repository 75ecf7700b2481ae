import "server-only";

import type { Executor } from "@/lib/db/client";
import { processingDeadline } from "@/lib/invoices/processing-deadline";
import { loadInvoiceWire } from "@/lib/transactions/load-invoice-wire";

const unixSeconds = (date: Date | null) => (date ? Math.floor(date.getTime() / 1000) : null);

/**
 * The body of an invoice callback, shaped as the public API's (its "Invoice payment callbacks"
 * examples, key for key): the invoice's OWN status (`created`, `pending`, `processing`, `confirmed`,
 * `failed`, and `cancelled` after a merchant's cancel), not the transactions/info mapping, with
 * `fixed_at` and `expires_at` in unix seconds at the root. `expires_at` is the deadline in force: the
 * 24-hour processing timer while a payment is unconfirmed, the invoice's own deadline otherwise.
 * The amounts are there from the moment the pay currency is fixed (lib/transactions/invoice-amounts.ts).
 * `additional_details` is Kassa's addition, the same as in transactions/info. An invoice a customer
 * started from a payment link also carries `payment_link_id` (the link's id); no other invoice's
 * body changes (docs/decisions/payment-links.md).
 */
export async function buildInvoiceCallback(db: Executor, id: number) {
  const wire = await loadInvoiceWire(db, id);
  const { record } = wire;
  const deadline =
    record.status === "processing"
      ? ((await processingDeadline(db, id)) ?? record.invoice.expiresAt)
      : record.invoice.expiresAt;
  return {
    id,
    foreign_id: record.foreignId,
    end_user_reference: record.endUserReference,
    type: "invoice" as const,
    ...(wire.cryptoAddress && { crypto_address: wire.cryptoAddress }),
    ...wire.amounts,
    transactions: wire.transactions,
    fees: wire.fees,
    error: wire.error,
    status: record.status,
    fixed_at: unixSeconds(record.invoice.fixedAt),
    expires_at: unixSeconds(deadline),
    additional_details: wire.additionalDetails,
    ...(record.invoice.paymentLinkId !== null && { payment_link_id: record.invoice.paymentLinkId }),
  };
}
