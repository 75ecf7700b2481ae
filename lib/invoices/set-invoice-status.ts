import "server-only";

import { eq } from "drizzle-orm";
import { systemClock } from "@/lib/clock";
import type { Tx } from "@/lib/db/client";
import { invoices } from "@/lib/db/schema";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { INVOICE_EXPIRY_QUEUE } from "@/lib/jobs/queues";
import type { InvoiceReason, InvoiceStatus } from "@/lib/transactions/statuses";
import { transitionStatus } from "@/lib/transactions/transition-status";
import { PROCESSING_TIMEOUT_SECONDS } from "./processing-deadline";

/**
 * An invoice's status change through the state machine, with the reason kept on the invoice. Entering
 * `processing` starts the 24-hour processing timer: the expiry job looks again then
 * (lib/invoices/expire-invoice.ts) and fails the invoice if a payment is still unconfirmed.
 */
export async function setInvoiceStatus(
  tx: Tx,
  invoiceId: number,
  to: InvoiceStatus,
  reason:
    | InvoiceReason
    | "currency_fixed"
    | "payment_seen"
    | "awaiting_remainder"
    | "payment_removed"
    | "payment_rejected",
): Promise<void> {
  // The reason first: the transition queues the callback, whose body should carry it.
  await tx.update(invoices).set({ statusReason: reason }).where(eq(invoices.transactionId, invoiceId));
  await transitionStatus(tx, { transactionId: invoiceId, kind: "invoice", to, reason });
  if (to !== "processing") return;
  // A second past the deadline, so the oldest payment seen (stamped by the database a moment ago) is over it.
  const runAt = new Date(systemClock.now().getTime() + (PROCESSING_TIMEOUT_SECONDS + 1) * 1000);
  await enqueueJob(tx, {
    queue: INVOICE_EXPIRY_QUEUE,
    payload: { invoiceId },
    runAt,
    dedupeKey: `invoice-processing:${invoiceId}:${runAt.getTime()}`,
  });
}
