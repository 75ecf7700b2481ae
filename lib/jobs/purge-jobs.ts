import "server-only";

import { sql } from "drizzle-orm";
import { type Db, queryRows } from "@/lib/db/client";

/**
 * Deletes up to `batchSize` finished jobs (done or failed) that finished more than
 * `retentionDays` ago, oldest first, and answers how many. Queued jobs are never touched. Bounded
 * so one run holds no lock for long; the runner calls it again while batches come back full.
 */
export async function purgeFinishedJobs(
  db: Db,
  input: { retentionDays: number; batchSize?: number },
): Promise<number> {
  const deleted = await queryRows<{ id: string | number }>(
    db,
    sql`delete from jobs where id in (
          select id from jobs
          where status in ('done', 'failed')
            and finished_at < now() - make_interval(days => ${input.retentionDays})
          order by finished_at
          limit ${input.batchSize ?? 1000}
          for update skip locked)
        returning id`,
  );
  return deleted.length;
}
