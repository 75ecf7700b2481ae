import "server-only";

import { and, asc, eq, gt, isNull } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { callbacks } from "@/lib/db/schema";
import { scheduleCallback } from "./schedule-callback";

/**
 * When a status callback stops being queued (delivered, or failed for good), the next one of its
 * transaction that was waiting for it goes now, in the same transaction, rather than at a retry
 * time of its own that would lie on the page (a "next try" in the past, behind a failing one).
 */
export async function wakeNextCallback(tx: Executor, input: { transactionId: number; afterId: number }) {
  const [next] = await tx
    .select({ id: callbacks.id })
    .from(callbacks)
    .where(
      and(
        eq(callbacks.transactionId, input.transactionId),
        gt(callbacks.id, input.afterId),
        eq(callbacks.status, "queued"),
        isNull(callbacks.redeliveryOf),
      ),
    )
    .orderBy(asc(callbacks.id))
    .limit(1);
  if (next) await scheduleCallback(tx, { callbackId: next.id, runAt: new Date() });
}
