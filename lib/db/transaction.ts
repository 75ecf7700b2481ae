import "server-only";

import type { Db, Tx } from "./client";
import { PG, pgErrorCode } from "./errors";

/**
 * Runs `work` in one transaction, retried a bounded number of times on a serialization failure or
 * deadlock (nothing was committed). Inside `work` use only `tx`: on PGlite the outer handle waits for
 * this transaction, so touching it hangs. Keep network calls and sleeps out of transactions.
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
