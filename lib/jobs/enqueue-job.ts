import "server-only";

import { sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";

export type JobInput = {
  queue: string;
  payload?: Record<string, unknown>;
  runAt?: Date;
  /** While a job with this key is queued, enqueueing another with the same key does nothing. */
  dedupeKey?: string;
  maxAttempts?: number;
};

/**
 * Queues a job. Call it with the transaction that makes the state change the job follows from, so
 * both commit or neither does (transactional outbox).
 */
export async function enqueueJob(db: Executor, job: JobInput): Promise<void> {
  await db.execute(sql`
    insert into jobs (queue, payload, run_at, dedupe_key, max_attempts)
    values (${job.queue}, ${JSON.stringify(job.payload ?? {})}::jsonb, ${(job.runAt ?? new Date()).toISOString()}::timestamptz,
            ${job.dedupeKey ?? null}, ${job.maxAttempts ?? JOB_MAX_ATTEMPTS})
    ${QUEUED_DEDUPE_CONFLICT}`);
}

export const JOB_MAX_ATTEMPTS = 12;

/** For an insert into jobs written out in a larger statement: the dedupe rule of enqueueJob. */
export const QUEUED_DEDUPE_CONFLICT = sql.raw(
  "on conflict (dedupe_key) where status = 'queued' and dedupe_key is not null do nothing",
);
