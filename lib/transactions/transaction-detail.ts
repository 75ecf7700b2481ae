import "server-only";

import { and, asc, eq, inArray } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { callbackAttempts, callbacks, transactionEvents, transactions } from "@/lib/db/schema";
import { describeTransaction } from "./describe-transaction";

/** Everything the explorer's detail view shows, or undefined for another merchant's transaction. */
export async function transactionDetail(db: Executor, merchantId: number, id: number) {
  const [owned] = await db
    .select({ id: transactions.id, type: transactions.type, status: transactions.status })
    .from(transactions)
    .where(and(eq(transactions.id, id), eq(transactions.merchantId, merchantId)));
  if (!owned) return undefined;
  const events = await db
    .select()
    .from(transactionEvents)
    .where(eq(transactionEvents.transactionId, id))
    .orderBy(asc(transactionEvents.id));
  const sent = await db
    .select()
    .from(callbacks)
    .where(eq(callbacks.transactionId, id))
    .orderBy(asc(callbacks.id));
  const attempts = sent.length
    ? await db
        .select()
        .from(callbackAttempts)
        .where(
          inArray(
            callbackAttempts.callbackId,
            sent.map((c) => c.id),
          ),
        )
        .orderBy(asc(callbackAttempts.id))
    : [];
  return {
    transaction: await describeTransaction(db, id, owned.type),
    /** The internal status, richer than the API's (the page says it in words). */
    status: owned.status,
    timeline: events.map((e) => ({
      at: e.createdAt.toISOString(),
      from: e.fromStatus,
      to: e.toStatus,
      reason: e.reason,
    })),
    callbacks: sent.map((c) => ({
      id: c.id,
      event: c.event,
      url: c.url,
      status: c.status,
      attempts: attempts
        .filter((a) => a.callbackId === c.id)
        .map((a) => ({
          at: a.createdAt.toISOString(),
          http_status: a.httpStatus,
          error: a.error,
          latency_ms: a.latencyMs,
          response_excerpt: a.responseExcerpt,
        })),
      redelivery_of: c.redeliveryOf,
    })),
  };
}
