import "server-only";

import { and, desc, eq, getTableColumns, gte, inArray, lt, type SQL } from "drizzle-orm";
import { readCallbackUrl } from "@/lib/callbacks/read-callback-url";
import { waitingForSql } from "@/lib/callbacks/waiting-for";
import type { Executor } from "@/lib/db/client";
import { callbackAttempts, callbacks, invoices } from "@/lib/db/schema";
import { type DeliveryState, EVENTS_PAGE_DEFAULT, type EventsListRequest } from "@/lib/schemas/events";

/** The callbacks table's status under the name the events API gives it. */
const STATE_OF = { queued: "pending", delivered: "delivered", failed: "failed" } as const;
const STATUS_OF = { pending: "queued", delivered: "delivered", failed: "failed" } as const;

const iso = (date: Date | null) => date?.toISOString() ?? null;

/**
 * POST /events/list: one merchant's callbacks, newest first (by id, which follows creation), each
 * with the exact body sent and its delivery state. Keyset pagination: the cursor is the last id of
 * the previous page, so pages stay stable while new callbacks arrive.
 */
export async function listEvents(db: Executor, input: { merchantId: number; request: EventsListRequest }) {
  const { request } = input;
  const limit = request.limit ?? EVENTS_PAGE_DEFAULT;
  const conditions: SQL[] = [eq(callbacks.merchantId, input.merchantId)];
  if (request.cursor) conditions.push(lt(callbacks.id, Number(request.cursor)));
  if (request.transaction_id) conditions.push(eq(callbacks.transactionId, request.transaction_id));
  if (request.delivery_state) conditions.push(eq(callbacks.status, STATUS_OF[request.delivery_state]));
  if (request.since) conditions.push(gte(callbacks.createdAt, new Date(request.since)));

  const rows = await db
    .select({ ...getTableColumns(callbacks), waitingFor: waitingForSql, invoiceUrl: invoices.callbackUrl })
    .from(callbacks)
    .leftJoin(invoices, eq(invoices.transactionId, callbacks.transactionId))
    .where(and(...conditions))
    .orderBy(desc(callbacks.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const latest = page.length
    ? await db
        .selectDistinctOn([callbackAttempts.callbackId])
        .from(callbackAttempts)
        .where(
          inArray(
            callbackAttempts.callbackId,
            page.map((callback) => callback.id),
          ),
        )
        .orderBy(callbackAttempts.callbackId, desc(callbackAttempts.id))
    : [];
  const merchantUrl = await readCallbackUrl(db, input.merchantId);
  const lastAttempt = new Map(latest.map((attempt) => [attempt.callbackId, attempt]));

  return {
    events: page.map((callback) => {
      const last = lastAttempt.get(callback.id);
      const state: DeliveryState = STATE_OF[callback.status];
      const waitingFor =
        state === "pending" && callback.waitingFor !== null ? Number(callback.waitingFor) : null;
      return {
        id: callback.id,
        event: callback.event,
        transaction_id: callback.transactionId,
        created_at: callback.createdAt.toISOString(),
        // Where it goes (or went) now: an invoice's own callback_url, else the merchant's current URL,
        // as delivery reads it (lib/callbacks/find-callback-destination.ts).
        url: callback.invoiceUrl ?? merchantUrl ?? callback.url,
        body: callback.body,
        redelivery_of: callback.redeliveryOf,
        delivery: {
          state,
          attempts: callback.attempts,
          last_http_status: last?.httpStatus ?? null,
          last_error: last?.error ?? null,
          last_attempt_at: iso(last?.createdAt ?? null),
          // A callback waiting for an earlier one of its transaction has no time of its own: it goes
          // as soon as that one is delivered or fails (lib/callbacks/waiting-for.ts).
          next_attempt_at:
            state === "pending" && waitingFor === null ? callback.nextAttemptAt.toISOString() : null,
          waiting_for: waitingFor,
          delivered_at: iso(callback.deliveredAt),
        },
      };
    }),
    next_cursor: rows.length > limit ? String(page.at(-1)!.id) : null,
  };
}
