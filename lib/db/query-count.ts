import "server-only";

import type { Logger } from "drizzle-orm/logger";

/**
 * Every statement this process sends to the database, counted (GET /metrics, `kassa_db_queries_total`):
 * how the checkout streams are shown to cost the same queries whatever the number of viewers. On
 * globalThis because Next compiles lib/db into two bundler runtimes (see lib/db/client.ts).
 */
const KEY = Symbol.for("kassa.databaseQueries");
type Slot = { [KEY]?: { count: number } };

function counter(): { count: number } {
  const slot = globalThis as Slot;
  slot[KEY] ??= { count: 0 };
  return slot[KEY];
}

export function countQuery(): void {
  counter().count++;
}

/** Statements sent since the process started. */
export function databaseQueryCount(): number {
  return counter().count;
}

/** Drizzle calls logQuery once per statement it sends, in or out of a transaction, on both drivers. */
export const queryCountingLogger: Logger = { logQuery: countQuery };
