import "server-only";

import { type SQL, sql } from "drizzle-orm";
import { type Clock, sqlNow } from "@/lib/clock";
import { type Db, queryRows } from "@/lib/db/client";
import type { Job } from "./job";

type ClaimOptions = {
  db: Db;
  queues: string[];
  limit: number;
  workerId: string;
  leaseSeconds: number;
  /** Decides which jobs are due and when the lease ends; the database's clock by default. */
  clock?: Clock;
};

/** `queue in (…)` for a runner's queues, as both the claim and the look for the next due time ask it. */
const inQueues = (queues: string[]): SQL =>
  sql`queue in (${sql.join(
    queues.map((queue) => sql`${queue}`),
    sql`, `,
  )})`;

/**
 * Claims due jobs with FOR UPDATE SKIP LOCKED, so each is claimed by exactly one worker even
 * across processes on PostgreSQL. A claimed job is invisible for the lease; if its worker dies, it
 * comes back when the lease runs out. Every claim counts an attempt and mints a new lease token,
 * which fences off whoever held the job before (lib/jobs/run-job.ts).
 */
export async function claimJobs({
  db,
  queues,
  limit,
  workerId,
  leaseSeconds,
  clock,
}: ClaimOptions): Promise<Job[]> {
  if (queues.length === 0 || limit <= 0) return [];
  const now = sqlNow(clock);
  const rows = await queryRows<{
    id: string | number;
    queue: string;
    payload: Record<string, unknown>;
    attempts: number;
    max_attempts: number;
    lease_token: string;
  }>(
    db,
    sql`update jobs set locked_until = ${now} + make_interval(secs => ${leaseSeconds}), locked_by = ${workerId},
               attempts = attempts + 1, lease_token = gen_random_uuid()
        where id in (
          select id from jobs
          where status = 'queued' and run_at <= ${now} and (locked_until is null or locked_until < ${now})
            and ${inQueues(queues)}
          order by run_at, id
          limit ${limit}
          for update skip locked)
        returning id, queue, payload, attempts, max_attempts, lease_token`,
  );
  return rows.map((row) => ({
    id: Number(row.id),
    queue: row.queue,
    payload: row.payload,
    attempts: row.attempts,
    maxAttempts: row.max_attempts,
    leaseToken: row.lease_token,
  }));
}

/**
 * How long until the next of these queues' jobs becomes claimable, in milliseconds: the earliest
 * due time still ahead, or the end of a lease held by a worker that may have died. Null when
 * nothing is waiting. The runner sleeps that long, not a fixed poll, so a timer (an invoice's
 * expiry, a callback's retry) runs when it is due and an idle process asks next to nothing.
 */
export async function msUntilNextDue({
  db,
  queues,
  clock,
}: Pick<ClaimOptions, "db" | "queues" | "clock">): Promise<number | null> {
  if (queues.length === 0) return null;
  const now = sqlNow(clock);
  const ofQueues = inQueues(queues);
  const [row] = await queryRows<{ ms: string | number | null }>(
    db,
    sql`select extract(epoch from (least(
          (select run_at from jobs where status = 'queued' and run_at > ${now} and ${ofQueues}
            order by run_at limit 1),
          (select min(locked_until) from jobs
            where status = 'queued' and run_at <= ${now} and locked_until > ${now} and ${ofQueues})
        ) - ${now})) * 1000 as ms`,
  );
  return row?.ms == null ? null : Math.max(0, Math.ceil(Number(row.ms)));
}
