import "server-only";

import { INVOICE_EXPIRY_QUEUE } from "@/lib/jobs/queues";
import { type ChangeJob, THIS_ID } from "@/lib/transactions/record-change";

/**
 * Expires an invoice at `runAt` if it is still open then. Keyed by the deadline (or by `why` the
 * check is repeated), so a new deadline queues its own job while the old one is still queued.
 */
export const invoiceExpiryJob = (runAt: Date, why: string = String(runAt.getTime())): ChangeJob => ({
  queue: INVOICE_EXPIRY_QUEUE,
  payload: { invoiceId: THIS_ID },
  runAt,
  dedupeKey: ["invoice-expiry:", THIS_ID, `:${why}`],
});
