import "server-only";

import { and, desc, eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { callbacks } from "@/lib/db/schema";
import { inTransaction } from "@/lib/db/transaction";
import { notFound } from "@/lib/errors";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { CALLBACK_QUEUE } from "@/lib/jobs/queues";

/**
 * Sends a callback again: a new delivery with the same body (and an X-Kassa-Redelivery-Of header),
 * of the given callback, or of the latest callback of a transaction. Scoped by merchant.
 */
export async function resendCallback(
  db: Db,
  input: { merchantId: number; callbackId?: number; transactionId?: number },
): Promise<number> {
  return inTransaction(db, async (tx) => {
    const where = input.callbackId
      ? and(eq(callbacks.id, input.callbackId), eq(callbacks.merchantId, input.merchantId))
      : and(
          eq(callbacks.transactionId, input.transactionId ?? -1),
          eq(callbacks.merchantId, input.merchantId),
        );
    const [original] = await tx.select().from(callbacks).where(where).orderBy(desc(callbacks.id)).limit(1);
    if (!original) throw notFound("No callback to resend.");
    const [copy] = await tx
      .insert(callbacks)
      .values({
        merchantId: original.merchantId,
        transactionId: original.transactionId,
        event: original.event,
        url: original.url,
        body: original.body,
        redeliveryOf: original.redeliveryOf ?? original.id,
      })
      .returning({ id: callbacks.id });
    await enqueueJob(tx, { queue: CALLBACK_QUEUE, payload: { callbackId: copy!.id }, maxAttempts: 50 });
    return copy!.id;
  });
}
