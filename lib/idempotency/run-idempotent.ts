import "server-only";

import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import { type Db, queryRows } from "@/lib/db/client";
import { inTransaction } from "@/lib/db/transaction";
import { KassaError } from "@/lib/errors";

/** How long an answer is replayed; older rows are ignored, then pruned (prune-idempotency-keys.ts). */
export const IDEMPOTENCY_WINDOW_HOURS = 24;

/** An answer as sent on the wire: its HTTP status and its exact body. */
export type StoredAnswer = { status: number; body: string };

export type IdempotentOutcome = StoredAnswer & { isReplay: boolean };

export type RunIdempotentInput = {
  merchantId: number;
  key: string;
  /** hashRequest() of this request: the same key with another request is refused. */
  requestHash: string;
  /** The operation, on the transaction that will also hold its answer. */
  run: (db: Db) => Promise<StoredAnswer>;
  /**
   * The answer to store for an error `run` threw, when it is the client's (a 4xx); undefined for a
   * fault on our side, which is not stored so that a retry runs again.
   */
  answerError: (error: unknown) => Promise<StoredAnswer | undefined>;
};

/**
 * The transaction-scoped advisory lock of one (merchant, key): 64 bits of a SHA-256, so two keys
 * share a lock (and one of them waits out the other's 409) with negligible probability.
 */
export function idempotencyLockId(merchantId: number, key: string): string {
  return createHash("sha256")
    .update(`idempotency:${merchantId}:${key}`)
    .digest()
    .readBigInt64BE(0)
    .toString();
}

type StoredRow = { request_hash: string; status_code: number; body: string };

/**
 * Runs a merchant request at most once per Idempotency-Key and answers every retry with the first
 * answer, for IDEMPOTENCY_WINDOW_HOURS. The answer commits with the work; a retry while the first
 * runs gets 409 (an advisory lock): docs/decisions/idempotency-key.md.
 */
export async function runIdempotent(db: Db, input: RunIdempotentInput): Promise<IdempotentOutcome> {
  return inTransaction(db, async (tx) => {
    const [lock] = await queryRows<{ is_locked: boolean }>(
      tx,
      sql`select pg_try_advisory_xact_lock(${idempotencyLockId(input.merchantId, input.key)}::bigint) as is_locked`,
    );
    if (!lock?.is_locked) {
      const error = new KassaError(
        "idempotency_key_in_flight",
        "A request with this Idempotency-Key is still being processed. Retry after it has finished.",
      );
      error.retryAfterSeconds = 1;
      throw error;
    }

    const [stored] = await queryRows<StoredRow>(
      tx,
      sql`select request_hash, status_code, body from idempotency_keys
          where merchant_id = ${input.merchantId} and key = ${input.key}
            and created_at > now() - make_interval(hours => ${IDEMPOTENCY_WINDOW_HOURS})`,
    );
    if (stored) {
      if (stored.request_hash !== input.requestHash) {
        throw new KassaError(
          "idempotency_key_reused",
          "This Idempotency-Key was already used with a different request. Use a new key for a new request.",
        );
      }
      return { status: Number(stored.status_code), body: stored.body, isReplay: true };
    }

    let answer: StoredAnswer;
    try {
      answer = await tx.transaction((savepoint) => input.run(savepoint));
    } catch (error) {
      const clientAnswer = await input.answerError(error);
      if (!clientAnswer) throw error;
      answer = clientAnswer;
    }
    // An expired row may still be there until the prune runs: the key starts afresh.
    await tx.execute(
      sql`insert into idempotency_keys (merchant_id, key, request_hash, status_code, body)
          values (${input.merchantId}, ${input.key}, ${input.requestHash}, ${answer.status}, ${answer.body})
          on conflict (merchant_id, key) do update
            set request_hash = excluded.request_hash, status_code = excluded.status_code,
                body = excluded.body, created_at = now()`,
    );
    return { ...answer, isReplay: false };
  });
}
