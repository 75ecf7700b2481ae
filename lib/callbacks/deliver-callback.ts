import "server-only";

import { eq, getTableColumns, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { callbackAttempts, callbacks } from "@/lib/db/schema";
import { inTransaction } from "@/lib/db/transaction";
import type { CallbackSettings } from "./callback-settings";
import { findCallbackDestination } from "./find-callback-destination";
import type { PostOutcome } from "./post-callback";
import { type CallbackJobPayload, enqueueDelivery, scheduleCallback } from "./schedule-callback";
import { sendSignedCallback } from "./send-signed-callback";
import { waitingForSql } from "./waiting-for";
import { wakeNextCallback } from "./wake-next-callback";

/** The public API's retry schedule: after 1, 5, 15, 30, 60, 90, 120, 180, 240, 240, 240 and 240 minutes. */
export const DEFAULT_SCHEDULE_SECONDS = [1, 5, 15, 30, 60, 90, 120, 180, 240, 240, 240, 240].map(
  (m) => m * 60,
);

const inFlight = new Map<number, number>();

/**
 * Records one attempt and what follows from it, in one transaction: delivered on a 2xx; otherwise
 * the next retry of the schedule, or failed once it is used up. A resend or a retry-all that moved
 * the schedule while this attempt was in flight owns the next attempt, so this one then only counts.
 * A callback that stops being queued lets the next one of its transaction go.
 */
async function recordAttempt(
  db: Db,
  input: {
    callbackId: number;
    merchantId: number;
    version: number;
    url: string | null;
    outcome: PostOutcome;
  },
  settings: CallbackSettings,
) {
  const { outcome } = input;
  await inTransaction(db, async (tx) => {
    await tx.insert(callbackAttempts).values({
      callbackId: input.callbackId,
      merchantId: input.merchantId,
      url: input.url ?? "",
      httpStatus: outcome.httpStatus,
      error: outcome.error,
      latencyMs: outcome.latencyMs,
      responseExcerpt: outcome.excerpt,
    });
    // Counting the attempt locks the row until this transaction ends, so the decisions below
    // see no concurrent resend half-way.
    const [row] = await tx
      .update(callbacks)
      .set({ attempts: sql`${callbacks.attempts} + 1` })
      .where(eq(callbacks.id, input.callbackId))
      .returning();
    if (row?.status !== "queued") return;
    const isOriginal = row.redeliveryOf === null;
    if (outcome.error === null) {
      await tx
        .update(callbacks)
        .set({ status: "delivered", deliveredAt: sql`now()` })
        .where(eq(callbacks.id, row.id));
      if (isOriginal) await wakeNextCallback(tx, { transactionId: row.transactionId, afterId: row.id });
      return;
    }
    if (row.scheduleVersion !== input.version) return;
    const delay = settings.scheduleSeconds[row.attempts - 1];
    if (delay === undefined) {
      await tx.update(callbacks).set({ status: "failed" }).where(eq(callbacks.id, row.id));
      if (isOriginal) await wakeNextCallback(tx, { transactionId: row.transactionId, afterId: row.id });
      return;
    }
    await scheduleCallback(tx, { callbackId: row.id, runAt: new Date(Date.now() + delay * 1000) });
  });
}

/**
 * The delivery job: one attempt at one callback, to where its transaction's callbacks go now
 * (find-callback-destination.ts), signed with the key chosen for its transaction (resolve-signing-keys.ts). A job overtaken by a newer
 * schedule (its version is not the callback's) does nothing. A status callback waits while an
 * earlier one of its transaction is queued (waiting-for.ts) and is woken when that one ends; a
 * merchant's resend does not wait.
 */
export async function deliverCallback(
  db: Db,
  job: number | CallbackJobPayload,
  settings: CallbackSettings,
): Promise<void> {
  const payload = typeof job === "number" ? { callbackId: job } : job;
  // One statement, so the callback's version and whether it waits are read from one snapshot: an
  // earlier callback that ends commits its wake-up (a new version) together with its status.
  const [callback] = await db
    .select({ ...getTableColumns(callbacks), waitingFor: waitingForSql })
    .from(callbacks)
    .where(eq(callbacks.id, payload.callbackId));
  if (callback?.status !== "queued") return;
  const version = payload.version ?? 0;
  if (callback.scheduleVersion !== version) return;
  if (callback.waitingFor !== null && !payload.isManual) return;

  const limit = settings.perMerchantLimit ?? 4;
  const busy = inFlight.get(callback.merchantId) ?? 0;
  if (busy >= limit) return enqueueDelivery(db, payload, new Date(Date.now() + 250));
  inFlight.set(callback.merchantId, busy + 1);
  let url: string | null = null;
  let outcome: PostOutcome;
  try {
    ({ url } = await findCallbackDestination(db, callback));
    outcome = await sendSignedCallback(db, {
      merchantId: callback.merchantId,
      transactionId: callback.transactionId,
      url,
      body: callback.body,
      headers: {
        "x-kassa-callback-id": String(callback.id),
        "x-kassa-event": callback.event,
        ...(callback.redeliveryOf !== null && { "x-kassa-redelivery-of": String(callback.redeliveryOf) }),
      },
      settings,
    });
  } finally {
    inFlight.set(callback.merchantId, (inFlight.get(callback.merchantId) ?? 1) - 1);
  }
  await recordAttempt(
    db,
    { callbackId: callback.id, merchantId: callback.merchantId, version, url, outcome },
    settings,
  );
}
