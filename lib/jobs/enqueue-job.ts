import "server-only";

import { sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { jobs } from "@/lib/db/schema";

export type JobInput = {
  queue: string;
  payload?: Record<string, unknown>;
  runAt?: Date;
  /**
   * While a job with this key is queued, enqueueing another with the same key does nothing. A
   * claimed job stays `queued` while it runs, so this also turns away a job asked for during that
   * run: a key for "something new happened" must name what is new (lib/chain/sandbox/mine-blocks.ts).
   */
  dedupeKey?: string;
  maxAttempts?: number;
};

/**
 * Queues a job. Call it with the transaction that makes the state change the job follows from, so
 * both commit or neither does (transactional outbox).
 */
export async function enqueueJob(db: Executor, job: JobInput): Promise<void> {
  await db
    .insert(jobs)
    .values({
      queue: job.queue,
      payload: job.payload ?? {},
      runAt: job.runAt ?? new Date(),
      dedupeKey: job.dedupeKey ?? null,
      maxAttempts: job.maxAttempts ?? JOB_MAX_ATTEMPTS,
    })
    .onConflictDoNothing({ target: jobs.dedupeKey, where: QUEUED_DEDUPE_PREDICATE });
}

export const JOB_MAX_ATTEMPTS = 12;

/** The predicate of the partial unique index jobs_dedupe_key, which ON CONFLICT must name to use it. */
const QUEUED_DEDUPE_PREDICATE = sql.raw("status = 'queued' and dedupe_key is not null");

/** For an insert into jobs written out in a larger statement: the dedupe rule of enqueueJob. */
export const QUEUED_DEDUPE_CONFLICT = sql`on conflict (dedupe_key) where ${QUEUED_DEDUPE_PREDICATE} do nothing`;
