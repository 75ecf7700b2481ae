import "server-only";

import http from "node:http";
import https from "node:https";
import net from "node:net";
import { and, desc, eq, isNull, lt, sql } from "drizzle-orm";
import { sign } from "@/lib/api/signature";
import { apiSecretContext } from "@/lib/api-keys/create-api-key";
import type { SecretBox } from "@/lib/crypto/secret-box";
import type { Db } from "@/lib/db/client";
import { apiKeys, callbackAttempts, callbacks } from "@/lib/db/schema";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { CALLBACK_QUEUE } from "@/lib/jobs/queues";
import {
  type CallbackMode,
  checkCallbackUrl,
  guardedLookup,
  isAllowedAddress,
  isPublicAddress,
} from "./url-policy";

/** The public API's retry schedule: after 1, 5, 15, 30, 60, 90, 120, 180, 240, 240, 240 and 240 minutes. */
export const DEFAULT_SCHEDULE_SECONDS = [1, 5, 15, 30, 60, 90, 120, 180, 240, 240, 240, 240].map(
  (m) => m * 60,
);

export type CallbackSettings = {
  mode: CallbackMode;
  timeoutMs: number;
  scheduleSeconds: number[];
  box: SecretBox;
  /** Deliveries in flight per merchant in this process; more wait, so one slow endpoint cannot hold every worker. */
  perMerchantLimit?: number;
};

type Outcome = { httpStatus: number | null; error: string | null; excerpt: string | null; latencyMs: number };

const inFlight = new Map<number, number>();

function post(
  url: URL,
  body: string,
  headers: Record<string, string>,
  settings: CallbackSettings,
): Promise<Outcome> {
  const started = Date.now();
  return new Promise((resolve) => {
    let isDone = false;
    const finish = (outcome: Omit<Outcome, "latencyMs">) => {
      if (isDone) return;
      isDone = true;
      resolve({ ...outcome, latencyMs: Date.now() - started });
    };
    // An address literal skips the lookup below, so it is checked here.
    const host = url.hostname.replace(/^\[|\]$/g, "");
    if (net.isIP(host) && !isAllowedAddress(host, settings.mode)) {
      return finish({ httpStatus: null, error: "refused: the address is private or local", excerpt: null });
    }
    const client = url.protocol === "https:" ? https : http;
    const request = client.request(
      url,
      {
        method: "POST",
        headers: { ...headers, "content-length": String(Buffer.byteLength(body)) },
        lookup: guardedLookup(settings.mode),
        timeout: settings.timeoutMs,
      },
      (response) => {
        // What a non-public target (a sandbox's loopback) answers is never kept: it would make the
        // transaction page a window onto services inside the host's network. The address is the
        // one this socket connected to, not a fresh resolution.
        const isPublicPeer = isPublicAddress(response.socket?.remoteAddress ?? "");
        const chunks: Buffer[] = [];
        let size = 0;
        response.on("data", (chunk: Buffer) => {
          if (size < 1024) chunks.push(chunk);
          size += chunk.length;
        });
        response.on("end", () => {
          const status = response.statusCode ?? 0;
          const excerpt = isPublicPeer ? Buffer.concat(chunks).toString("utf8").slice(0, 1024) : null;
          const isRedirect = status >= 300 && status < 400;
          finish({
            httpStatus: status,
            error:
              status >= 200 && status < 300
                ? null
                : isRedirect
                  ? `redirect to ${response.headers.location ?? "?"} not followed`
                  : `HTTP ${status}`,
            excerpt,
          });
        });
        response.on("error", (error) =>
          finish({ httpStatus: response.statusCode ?? null, error: error.message, excerpt: null }),
        );
      },
    );
    // A deadline for the whole exchange, not only for socket inactivity.
    const deadline = setTimeout(
      () => request.destroy(new Error(`timed out after ${settings.timeoutMs} ms`)),
      settings.timeoutMs,
    );
    request.on("timeout", () => request.destroy(new Error(`timed out after ${settings.timeoutMs} ms`)));
    request.on("error", (error) => finish({ httpStatus: null, error: error.message, excerpt: null }));
    request.on("close", () => clearTimeout(deadline));
    request.end(body);
  });
}

/** The merchant's newest active key signs callbacks, the same scheme merchants verify on requests. */
async function signingKey(db: Db, merchantId: number, box: SecretBox) {
  const [key] = await db
    .select({ key: apiKeys.key, sealed: apiKeys.secretSealed })
    .from(apiKeys)
    .where(and(eq(apiKeys.merchantId, merchantId), isNull(apiKeys.revokedAt)))
    .orderBy(desc(apiKeys.id))
    .limit(1);
  return key ? { key: key.key, secret: box.open(key.sealed, apiSecretContext(key.key)) } : undefined;
}

const later = (db: Db, callbackId: number, runAt: Date) =>
  enqueueJob(db, { queue: CALLBACK_QUEUE, payload: { callbackId }, runAt, maxAttempts: 50 });

/**
 * The delivery job: one attempt at one callback. A 2xx answer delivers it; anything else (an error
 * status, a redirect, which is never followed, a timeout, a refused address) is recorded and the next
 * attempt scheduled, until the schedule runs out and the callback is marked failed. Callbacks of one
 * transaction go out in order: a later one waits while an earlier one is still being retried.
 */
export async function deliverCallback(db: Db, callbackId: number, settings: CallbackSettings): Promise<void> {
  const [callback] = await db.select().from(callbacks).where(eq(callbacks.id, callbackId));
  if (callback?.status !== "queued") return;
  if (callback.nextAttemptAt > new Date()) return later(db, callback.id, callback.nextAttemptAt);

  const [earlier] = await db
    .select({ nextAttemptAt: callbacks.nextAttemptAt })
    .from(callbacks)
    .where(
      and(
        eq(callbacks.transactionId, callback.transactionId),
        lt(callbacks.id, callback.id),
        eq(callbacks.status, "queued"),
      ),
    )
    .orderBy(desc(callbacks.nextAttemptAt))
    .limit(1);
  if (earlier)
    return later(db, callback.id, new Date(Math.max(earlier.nextAttemptAt.getTime(), Date.now()) + 1_000));

  const limit = settings.perMerchantLimit ?? 4;
  const busy = inFlight.get(callback.merchantId) ?? 0;
  if (busy >= limit) return later(db, callback.id, new Date(Date.now() + 250));
  inFlight.set(callback.merchantId, busy + 1);
  let outcome: Outcome;
  try {
    const key = await signingKey(db, callback.merchantId, settings.box);
    if (!key) {
      outcome = {
        httpStatus: null,
        error: "no active API key to sign the callback with",
        excerpt: null,
        latencyMs: 0,
      };
    } else {
      let url: URL | undefined;
      try {
        url = checkCallbackUrl(callback.url, settings.mode);
      } catch {
        outcome = {
          httpStatus: null,
          error: "refused: the URL is not allowed in this mode",
          excerpt: null,
          latencyMs: 0,
        };
      }
      if (url) {
        outcome = await post(
          url,
          callback.body,
          {
            "content-type": "application/json",
            "user-agent": "Kassa-Callbacks/1",
            "x-processing-key": key.key,
            "x-processing-signature": sign(callback.body, key.secret),
            "x-kassa-callback-id": String(callback.id),
            "x-kassa-event": callback.event,
            ...(callback.redeliveryOf !== null && { "x-kassa-redelivery-of": String(callback.redeliveryOf) }),
          },
          settings,
        );
      }
    }
  } finally {
    inFlight.set(callback.merchantId, (inFlight.get(callback.merchantId) ?? 1) - 1);
  }
  outcome = outcome!;

  await db.insert(callbackAttempts).values({
    callbackId: callback.id,
    merchantId: callback.merchantId,
    url: callback.url,
    httpStatus: outcome.httpStatus,
    error: outcome.error,
    latencyMs: outcome.latencyMs,
    responseExcerpt: outcome.excerpt,
  });
  const attempts = callback.attempts + 1;
  if (outcome.error === null) {
    await db
      .update(callbacks)
      .set({ status: "delivered", attempts, deliveredAt: sql`now()` })
      .where(eq(callbacks.id, callback.id));
    return;
  }
  const delay = settings.scheduleSeconds[attempts - 1];
  if (delay === undefined) {
    await db.update(callbacks).set({ status: "failed", attempts }).where(eq(callbacks.id, callback.id));
    return;
  }
  const nextAttemptAt = new Date(Date.now() + delay * 1000);
  await db.update(callbacks).set({ attempts, nextAttemptAt }).where(eq(callbacks.id, callback.id));
  await later(db, callback.id, nextAttemptAt);
}
