import "server-only";

import { sql } from "drizzle-orm";
import { type Db, queryRows } from "@/lib/db/client";
import { IDEMPOTENCY_WINDOW_HOURS } from "./run-idempotent";

const BATCH = 1000;
const MAX_BATCHES = 50;

/**
 * Deletes stored answers older than the replay window, in bounded batches so no run holds locks for
 * long, and answers how many. Safe in several workers at once (SKIP LOCKED). Until a row is pruned
 * it is already ignored: runIdempotent only replays rows inside the window.
 */
export async function pruneIdempotencyKeys(db: Db): Promise<number> {
  let total = 0;
  for (let batch = 0; batch < MAX_BATCHES; batch++) {
    const rows = await queryRows<{ key: string }>(
      db,
      sql`delete from idempotency_keys where (merchant_id, key) in (
            select merchant_id, key from idempotency_keys
            where created_at < now() - make_interval(hours => ${IDEMPOTENCY_WINDOW_HOURS})
            order by created_at limit ${BATCH} for update skip locked)
          returning key`,
    );
    total += rows.length;
    if (rows.length < BATCH) return total;
    await new Promise((resolve) => setImmediate(resolve));
  }
  return total;
}
