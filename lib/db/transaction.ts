import "server-only";

import type { Db, Tx } from "./client";
import { PG, pgErrorCode } from "./errors";

/**
 * Runs `work` in one database transaction, retried (a bounded number of times) when PostgreSQL
 * aborts it for a serialization failure or a deadlock, both of which are safe to repeat because
 * nothing of the aborted attempt was committed.
 *
 * Inside `work`, use only `tx`: on PGlite the outer handle waits for this transaction to end, so
 * touching it here would wait forever. Keep network calls and sleeps out of transactions.
 */
export async function inTransaction<T>(db: Db, work: (tx: Tx) => Promise<T>, attempts = 4): Promise<T> {
  return retrySerializationFailures(() => db.transaction(work), attempts);
}

/**
 * Runs `work` (one transaction, or one statement on its own) again when PostgreSQL aborted it for a
 * serialization failure or a deadlock: nothing of the aborted attempt was committed.
 */
export async function retrySerializationFailures<T>(work: () => Promise<T>, attempts = 4): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      const code = pgErrorCode(error);
      const isRetryable = code === PG.serializationFailure || code === PG.deadlockDetected;
      if (!isRetryable || attempt >= attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, 5 * attempt + Math.random() * 10));
    }
  }
}
