import "server-only";

import { and, eq, sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { callbacks } from "@/lib/db/schema";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { CALLBACK_QUEUE } from "@/lib/jobs/queues";

/** What a delivery job carries: the callback, and the schedule it belongs to. */
export type CallbackJobPayload = {
  callbackId: number;
  /** The callback's schedule_version when the job was queued; absent (0) on the first job. */
  version?: number;
  /** A merchant's explicit resend: sent now, even while an earlier callback of its transaction waits. */
  isManual?: boolean;
};

/** Queues the job for a callback's current schedule. */
export const enqueueDelivery = (tx: Executor, payload: CallbackJobPayload, runAt?: Date) =>
  enqueueJob(tx, { queue: CALLBACK_QUEUE, payload, runAt, maxAttempts: 50 });

/**
 * Sets a queued callback's next attempt to `runAt` and queues the one job for it, in the caller's
 * transaction. The schedule version moves on, so a job queued for an earlier schedule (a retry
 * four hours out) finds itself overtaken and does nothing: pulling an attempt forward never leaves
 * two schedules sending the same callback. Returns false when the callback is no longer queued.
 */
export async function scheduleCallback(
  tx: Executor,
  input: { callbackId: number; runAt: Date; isManual?: boolean },
): Promise<boolean> {
  const [row] = await tx
    .update(callbacks)
    .set({ nextAttemptAt: input.runAt, scheduleVersion: sql`${callbacks.scheduleVersion} + 1` })
    .where(and(eq(callbacks.id, input.callbackId), eq(callbacks.status, "queued")))
    .returning({ version: callbacks.scheduleVersion });
  if (!row) return false;
  await enqueueDelivery(
    tx,
    { callbackId: input.callbackId, version: row.version, ...(input.isManual && { isManual: true }) },
    input.runAt,
  );
  return true;
}
