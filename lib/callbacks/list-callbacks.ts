import "server-only";

import { and, desc, eq, inArray, lt } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { callbackAttempts, callbacks } from "@/lib/db/schema";

/** The merchant's delivery log, newest first, each callback with its attempts. */
export async function listCallbacks(
  db: Executor,
  input: { merchantId: number; before?: number; limit?: number },
) {
  const limit = Math.min(input.limit ?? 50, 200);
  const rows = await db
    .select()
    .from(callbacks)
    .where(
      input.before
        ? and(eq(callbacks.merchantId, input.merchantId), lt(callbacks.id, input.before))
        : eq(callbacks.merchantId, input.merchantId),
    )
    .orderBy(desc(callbacks.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const attempts = page.length
    ? await db
        .select()
        .from(callbackAttempts)
        .where(
          inArray(
            callbackAttempts.callbackId,
            page.map((c) => c.id),
          ),
        )
    : [];
  return {
    callbacks: page.map((c) => {
      const own = attempts.filter((a) => a.callbackId === c.id).sort((a, b) => a.id - b.id);
      const last = own.at(-1);
      return {
        id: c.id,
        transaction_id: c.transactionId,
        event: c.event,
        url: c.url,
        status: c.status,
        attempts: own.length,
        next_attempt_at: c.status === "queued" ? c.nextAttemptAt.toISOString() : null,
        last_http_status: last?.httpStatus ?? null,
        last_error: last?.error ?? null,
        last_latency_ms: last?.latencyMs ?? null,
        created_at: c.createdAt.toISOString(),
        redelivery_of: c.redeliveryOf,
      };
    }),
    nextBefore: rows.length > limit ? page.at(-1)!.id : null,
  };
}
