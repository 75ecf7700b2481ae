import "server-only";

import { and, desc, eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { callbacks } from "@/lib/db/schema";
import { inTransaction } from "@/lib/db/transaction";
import { notFound } from "@/lib/errors";
import { findCallbackDestination } from "./find-callback-destination";
import { enqueueDelivery, scheduleCallback } from "./schedule-callback";

/**
 * Sends a callback again now: the given one, or a transaction's latest (scoped by merchant). One still
 * being retried is pulled forward (next attempt at once, past backoff and ordering; returns its own id);
 * one delivered or failed gets a redelivery: a new callback, same body, an X-Kassa-Redelivery-Of header,
 * due at once. Either goes where the transaction's callbacks go now, through the same delivery job.
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
    const [original] = await tx
      .select()
      .from(callbacks)
      .where(where)
      .orderBy(desc(callbacks.id))
      .limit(1)
      .for("update");
    if (!original) throw notFound("No callback to resend.");
    const now = new Date();
    if (original.status === "queued") {
      await scheduleCallback(tx, { callbackId: original.id, runAt: now, isManual: true });
      return original.id;
    }
    const destination = await findCallbackDestination(tx, original);
    const [copy] = await tx
      .insert(callbacks)
      .values({
        merchantId: original.merchantId,
        transactionId: original.transactionId,
        event: original.event,
        url: destination.url ?? original.url,
        body: original.body,
        nextAttemptAt: now,
        redeliveryOf: original.redeliveryOf ?? original.id,
      })
      .returning({ id: callbacks.id });
    await enqueueDelivery(tx, { callbackId: copy!.id }, now);
    return copy!.id;
  });
}
