import "server-only";

import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { callbacks, jobs } from "@/lib/db/schema";
import { inTransaction } from "@/lib/db/transaction";
import { CALLBACK_QUEUE } from "@/lib/jobs/queues";
import type { CallbackJobPayload } from "./schedule-callback";

/** Jobs are inserted in slices, so a merchant with thousands pending does not build one huge statement. */
const SLICE = 500;

/**
 * "Retry everything pending now", after the merchant fixed the callback URL: every queued callback
 * of the merchant gets its next attempt now (a new schedule version and one job each; the retries
 * they were waiting for are overtaken). Order per transaction still holds: a callback that waits
 * for an earlier one goes when that one is delivered. Returns how many were pulled forward.
 */
export async function retryPendingCallbacks(db: Db, input: { merchantId: number }): Promise<number> {
  return inTransaction(db, async (tx) => {
    const now = new Date();
    const moved = await tx
      .update(callbacks)
      .set({ nextAttemptAt: now, scheduleVersion: sql`${callbacks.scheduleVersion} + 1` })
      .where(and(eq(callbacks.merchantId, input.merchantId), eq(callbacks.status, "queued")))
      .returning({ id: callbacks.id, version: callbacks.scheduleVersion });
    for (let start = 0; start < moved.length; start += SLICE) {
      await tx.insert(jobs).values(
        moved.slice(start, start + SLICE).map((row) => ({
          queue: CALLBACK_QUEUE,
          payload: { callbackId: row.id, version: row.version } satisfies CallbackJobPayload,
          runAt: now,
          maxAttempts: 50,
        })),
      );
    }
    return moved.length;
  });
}
