import "server-only";

import { type SQL, sql } from "drizzle-orm";

/**
 * Where the engine reads "now". Production uses the system clock; tests pass a clock they move
 * forward (tests/support/clock.ts), so a 15-minute timer or a 60-second lease runs out at once
 * instead of after a wall-clock sleep.
 */
export type Clock = { now: () => Date };

export const systemClock: Clock = { now: () => new Date() };

/**
 * "Now" inside a SQL statement. The system clock keeps the database's own `now()`: with several
 * app hosts on one PostgreSQL, leases and due times are judged by one clock, not by each host's.
 * Any other clock's time is sent as a parameter, so a test's clock decides what is due.
 */
export function sqlNow(clock: Clock = systemClock): SQL {
  return clock === systemClock ? sql`now()` : sql`${clock.now().toISOString()}::timestamptz`;
}
