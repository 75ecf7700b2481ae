import "server-only";

import { and, count, desc, eq, getTableColumns, inArray, lt } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { callbackAttempts, callbacks, invoices } from "@/lib/db/schema";
import { readCallbackUrl } from "./read-callback-url";
import { waitingForSql } from "./waiting-for";

/**
 * The merchant's delivery log, newest first: each callback with where it goes now, what it waits
 * for, the payload it sends and every attempt (URL, HTTP status, response excerpt, duration). A
 * queued callback shows either the time of its next try or the earlier callback it waits for,
 * never a retry time that has already passed while it waited.
 */
export async function listCallbacks(
  db: Executor,
  input: { merchantId: number; before?: number; limit?: number },
) {
  const limit = Math.min(input.limit ?? 50, 200);
  const rows = await db
    .select({ ...getTableColumns(callbacks), waitingFor: waitingForSql, invoiceUrl: invoices.callbackUrl })
    .from(callbacks)
    .leftJoin(invoices, eq(invoices.transactionId, callbacks.transactionId))
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
  const merchantUrl = await readCallbackUrl(db, input.merchantId);
  const [pending] = await db
    .select({ n: count() })
    .from(callbacks)
    .where(and(eq(callbacks.merchantId, input.merchantId), eq(callbacks.status, "queued")));
  const events = new Map(rows.map((c) => [c.id, c.event]));
  const now = Date.now();
  return {
    callbacks: page.map((c) => {
      const own = attempts.filter((a) => a.callbackId === c.id).sort((a, b) => a.id - b.id);
      const last = own.at(-1);
      const waitingFor = c.status === "queued" && c.waitingFor !== null ? Number(c.waitingFor) : null;
      const nextAt = c.status === "queued" && waitingFor === null ? c.nextAttemptAt : null;
      return {
        id: c.id,
        transaction_id: c.transactionId,
        event: c.event,
        /** Where it goes now: the invoice's own URL, or the merchant's current one (null: none set). */
        url: c.invoiceUrl ?? merchantUrl,
        is_invoice_url: c.invoiceUrl !== null,
        status: c.status,
        attempts: own.length,
        /** The next try; null when delivered, failed, or waiting for an earlier callback. */
        next_attempt_at: nextAt?.toISOString() ?? null,
        /** The next try is due and waits only for a worker: shown as "sending now", not as a past time. */
        is_due: nextAt !== null && nextAt.getTime() <= now,
        waiting_for: waitingFor === null ? null : { id: waitingFor, event: events.get(waitingFor) ?? null },
        last_http_status: last?.httpStatus ?? null,
        last_error: last?.error ?? null,
        last_latency_ms: last?.latencyMs ?? null,
        created_at: c.createdAt.toISOString(),
        delivered_at: c.deliveredAt?.toISOString() ?? null,
        redelivery_of: c.redeliveryOf,
        payload: c.body,
        attempt_log: own.map((a) => ({
          id: a.id,
          at: a.createdAt.toISOString(),
          url: a.url,
          http_status: a.httpStatus,
          error: a.error,
          latency_ms: a.latencyMs,
          response_excerpt: a.responseExcerpt,
        })),
      };
    }),
    nextBefore: rows.length > limit ? page.at(-1)!.id : null,
    pending_count: pending?.n ?? 0,
  };
}
