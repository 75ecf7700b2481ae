import "server-only";

import type { Executor } from "@/lib/db/client";
import { processingDeadline } from "@/lib/invoices/processing-deadline";
import { loadInvoiceWire } from "@/lib/transactions/load-invoice-wire";

const unixSeconds = (date: Date | null) => (date ? Math.floor(date.getTime() / 1000) : null);

/**
 * An invoice callback's body, key for key the public API's examples: the invoice's own status (`cancelled`
 * too), not transactions/info's mapping; `fixed_at`, `expires_at` in unix seconds (the deadline in force: the
 * 24-hour timer while a payment is unconfirmed); amounts once the pay currency is fixed; `additional_details`
 * as in transactions/info; `payment_link_id` only from a payment link (docs/decisions/payment-links.md).
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
