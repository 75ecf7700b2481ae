import "server-only";

import { and, asc, inArray, lt, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { jobs } from "@/lib/db/schema";

/**
 * Deletes up to `batchSize` finished jobs (done or failed) that finished more than
 * `retentionDays` ago, oldest first, and answers how many. Queued jobs are never touched. Bounded
 * so one run holds no lock for long; the runner calls it again while batches come back full.
 */
export async function purgeFinishedJobs(
  db: Db,
  input: { retentionDays: number; batchSize?: number },
): Promise<number> {
  const batch = db
    .select({ id: jobs.id })
    .from(jobs)
    .where(
      and(
        inArray(jobs.status, ["done", "failed"]),
        lt(jobs.finishedAt, sql`now() - make_interval(days => ${input.retentionDays})`),
      ),
    )
    .orderBy(asc(jobs.finishedAt))
    .limit(input.batchSize ?? 1000)
    .for("update", { skipLocked: true });
  const deleted = await db.delete(jobs).where(inArray(jobs.id, batch)).returning({ id: jobs.id });
  return deleted.length;
}
