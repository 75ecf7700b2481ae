import "server-only";

import { eq } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { callbacks, invoices, merchants, transactions } from "@/lib/db/schema";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { CALLBACK_QUEUE } from "@/lib/jobs/queues";
import { describeTransaction } from "@/lib/transactions/describe-transaction";

/** The status changes merchants act on, per kind of transaction (issue: callbacks). */
const EVENTS: Record<string, readonly string[]> = {
  invoice: ["pending", "processing", "confirmed", "failed", "cancelled"],
  // below_minimum: only for merchants who turned that callback on (lib/deposits/announce-below-minimum.ts)
  deposit: ["processing", "confirmed", "below_minimum"],
  withdrawal: ["confirmed", "error", "rejected"],
  withdrawal_exchange: ["confirmed", "error", "rejected"],
  withdrawal_instant: ["confirmed", "error", "rejected"],
};

/**
 * Queues a callback for a transaction's new status, in the caller's transaction: the callback is
 * committed with the change it reports, or not at all. The body is the transactions/info object
 * as it stands now. Nothing is queued when the merchant has no callback URL.
 */
export async function queueCallback(
  tx: Executor,
  input: { transactionId: number; status: string },
): Promise<number | null> {
  const [row] = await tx
    .select({
      type: transactions.type,
      merchantId: transactions.merchantId,
      merchantUrl: merchants.callbackUrl,
    })
    .from(transactions)
    .innerJoin(merchants, eq(merchants.id, transactions.merchantId))
    .where(eq(transactions.id, input.transactionId));
  if (!row || !EVENTS[row.type]?.includes(input.status)) return null;
  let url = row.merchantUrl;
  if (row.type === "invoice") {
    const [invoice] = await tx
      .select({ url: invoices.callbackUrl })
      .from(invoices)
      .where(eq(invoices.transactionId, input.transactionId));
    url = invoice?.url ?? url;
  }
  if (!url) return null;
  const body = JSON.stringify(await describeTransaction(tx, input.transactionId));
  const [created] = await tx
    .insert(callbacks)
    .values({
      merchantId: row.merchantId,
      transactionId: input.transactionId,
      event: `${row.type}.${input.status}`,
      url,
      body,
    })
    .returning({ id: callbacks.id });
  await enqueueJob(tx, { queue: CALLBACK_QUEUE, payload: { callbackId: created!.id }, maxAttempts: 50 });
  return created!.id;
}
