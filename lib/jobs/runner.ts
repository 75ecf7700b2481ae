import { hostname } from "node:os";
import { sql } from "drizzle-orm";
import { type Db, queryRows } from "@/lib/db/client";

export type Job = {
  id: number;
  queue: string;
  payload: Record<string, unknown>;
  attempts: number;
  maxAttempts: number;
};
export type JobHandler = (job: Job, db: Db) => Promise<void>;
export type Handlers = Record<string, JobHandler>;

type ClaimOptions = { db: Db; queues: string[]; limit: number; workerId: string; leaseSeconds: number };

/**
 * Claims due jobs with FOR UPDATE SKIP LOCKED, so each is run by exactly one worker even across
 * processes on PostgreSQL. A claimed job is invisible for the lease; if its worker dies, it comes
 * back when the lease runs out.
 */
export async function claimJobs({ db, queues, limit, workerId, leaseSeconds }: ClaimOptions): Promise<Job[]> {
  if (queues.length === 0 || limit <= 0) return [];
  const rows = await queryRows<{
    id: string | number;
    queue: string;
    payload: Record<string, unknown>;
    attempts: number;
    max_attempts: number;
  }>(
    db,
    sql`update jobs set locked_until = now() + make_interval(secs => ${leaseSeconds}), locked_by = ${workerId},
               attempts = attempts + 1
        where id in (
          select id from jobs
          where status = 'queued' and run_at <= now() and (locked_until is null or locked_until < now())
            and queue in (${sql.join(
              queues.map((queue) => sql`${queue}`),
              sql`, `,
            )})
          order by run_at, id
          limit ${limit}
          for update skip locked)
        returning id, queue, payload, attempts, max_attempts`,
  );
  return rows.map((row) => ({
    id: Number(row.id),
    queue: row.queue,
    payload: row.payload,
    attempts: row.attempts,
    maxAttempts: row.max_attempts,
  }));
}

export const defaultBackoffSeconds = (attempt: number) => Math.min(2 ** attempt, 300);

/** Runs one claimed job and records the outcome: done, retry later, or failed for good. */
export async function runJob(
  db: Db,
  handlers: Handlers,
  job: Job,
  options: { backoffSeconds?: (attempt: number) => number; log?: (message: string) => void } = {},
): Promise<void> {
  const { backoffSeconds = defaultBackoffSeconds, log = console.log } = options;
  try {
    const handler = handlers[job.queue];
    if (!handler) throw new Error(`no handler for queue ${job.queue}`);
    await handler(job, db);
    await db.execute(
      sql`update jobs set status = 'done', finished_at = now(), locked_until = null, last_error = null where id = ${job.id}`,
    );
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const isFinal = job.attempts >= job.maxAttempts;
    log(
      `[jobs] ${job.queue} #${job.id} attempt ${job.attempts} failed${isFinal ? " for the last time" : ""}: ${message}`,
    );
    await db
      .execute(
        isFinal
          ? sql`update jobs set status = 'failed', finished_at = now(), locked_until = null, last_error = ${message}
                where id = ${job.id}`
          : sql`update jobs set locked_until = null, last_error = ${message},
                   run_at = now() + make_interval(secs => ${backoffSeconds(job.attempts)}) where id = ${job.id}`,
      )
      .catch((recordError) => log(`[jobs] could not record the failure of #${job.id}: ${recordError}`));
  }
}

export type RunnerOptions = {
  db: Db;
  handlers: Handlers;
  concurrency?: number;
  idleMs?: number;
  leaseSeconds?: number;
  backoffSeconds?: (attempt: number) => number;
  log?: (message: string) => void;
};

export type Runner = { stop: () => Promise<void> };

/** The background worker: polls for due jobs and runs them with bounded concurrency until stopped. */
export function startJobRunner(options: RunnerOptions): Runner {
  const { db, handlers, concurrency = 4, idleMs = 250, leaseSeconds = 60, log = console.log } = options;
  const workerId = `${hostname()}:${process.pid}`;
  const queues = Object.keys(handlers);
  const inFlight = new Set<Promise<void>>();
  let isStopping = false;
  let wake: (() => void) | undefined;

  const loop = async () => {
    while (!isStopping) {
      // A turn of the event loop between batches. On PGlite every query completes as a promise
      // continuation with no I/O in between, so a backlog of jobs (a restart after a crash) would
      // otherwise keep the process from accepting a single HTTP request until it was all done.
      await new Promise((resolve) => setImmediate(resolve));
      let claimed: Job[] = [];
      try {
        claimed = await claimJobs({ db, queues, limit: concurrency - inFlight.size, workerId, leaseSeconds });
      } catch (error) {
        if (!isStopping) log(`[jobs] claiming failed: ${error instanceof Error ? error.message : error}`);
      }
      for (const job of claimed) {
        const running = runJob(db, handlers, job, options).finally(() => {
          inFlight.delete(running);
          wake?.();
        });
        inFlight.add(running);
      }
      if (claimed.length === 0 || inFlight.size >= concurrency) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, idleMs);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wake = undefined;
      }
    }
  };
  const looping = loop();

  return {
    stop: async () => {
      isStopping = true;
      wake?.();
      await looping;
      await Promise.allSettled([...inFlight]);
    },
  };
}

/**
 * Runs every due job, one at a time, until none is due (jobs may enqueue further due jobs). Tests
 * use it to move the system forward deterministically through the same code the worker runs.
 */
export async function runDueJobs(
  db: Db,
  handlers: Handlers,
  options: { maxJobs?: number } = {},
): Promise<number> {
  const { maxJobs = 1000 } = options;
  let count = 0;
  while (count < maxJobs) {
    const [job] = await claimJobs({
      db,
      queues: Object.keys(handlers),
      limit: 1,
      workerId: "test",
      leaseSeconds: 60,
    });
    if (!job) break;
    await runJob(db, handlers, job, { log: () => {} });
    count++;
  }
  return count;
}
