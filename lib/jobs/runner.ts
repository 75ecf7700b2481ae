import "server-only";

/*
 * Kassa's job runner: a transactional outbox (the `jobs` table) claimed with FOR UPDATE SKIP LOCKED,
 * with leases only their holder renews or completes. Why not pg-boss: docs/decisions/job-outbox.md.
 */
import { setMaxListeners } from "node:events";
import { hostname } from "node:os";
import type { Clock } from "@/lib/clock";
import type { Db } from "@/lib/db/client";
import { claimJobs, msUntilNextDue } from "./claim-jobs";
import type { Handlers, Job } from "./job";
import { purgeFinishedJobs } from "./purge-jobs";
import { type RunJobOptions, runJob } from "./run-job";

export { claimJobs } from "./claim-jobs";
export type { Handlers, Job, JobContext, JobHandler } from "./job";
export { defaultBackoffSeconds, runJob } from "./run-job";

/** Work a runner repeats on a timer (sweeps, purges). Must be safe to run in several processes at once. */
export type PeriodicTask = { name: string; everyMs: number; run: (db: Db) => Promise<unknown> };

export type RunnerOptions = {
  db: Db;
  handlers: Handlers;
  concurrency?: number;
  /**
   * The longest the runner sleeps between looks when nothing is due; a finished job wakes it sooner.
   * With `wakeOn`, so do an announcement and the next job's due time; without, it is also how late
   * a new or newly due job may start.
   */
  idleMs?: number;
  /** Calls `wake` when jobs are queued (the jobs table's NOTIFY, lib/jobs/job-announcements.ts). */
  wakeOn?: (wake: () => void) => Promise<{ stop: () => Promise<void> }>;
  leaseSeconds?: number;
  heartbeatMs?: number;
  /** The longest one job's handler may run before it is told to stop (lib/jobs/run-job.ts). */
  maxRunMs?: number;
  /**
   * On stop, how long jobs already running may go on to finish before their handlers are told to
   * stop (KASSA_SHUTDOWN_GRACE_SECONDS); 0 tells them at once. A job told to stop is retried later.
   */
  stopGraceMs?: number;
  backoffSeconds?: (attempt: number) => number;
  /** Purge finished jobs older than this many days (KASSA_JOB_RETENTION_DAYS); unset: this runner does not purge. */
  retentionDays?: number;
  tasks?: PeriodicTask[];
  /** What "now" is for due times, leases and handlers; the system clock (the database's now()) by default. */
  clock?: Clock;
  log?: (message: string) => void;
};

export type Runner = { stop: () => Promise<void> };

const PURGE_EVERY_MS = 10 * 60_000;
const PURGE_BATCH = 1000;
const PURGE_MAX_BATCHES = 50;

/** The purge as a periodic task: batches of PURGE_BATCH, a turn of the event loop between them. */
export function purgeTask(retentionDays: number): PeriodicTask {
  return {
    name: "purge finished jobs",
    everyMs: PURGE_EVERY_MS,
    run: async (db) => {
      for (let batch = 0; batch < PURGE_MAX_BATCHES; batch++) {
        if ((await purgeFinishedJobs(db, { retentionDays, batchSize: PURGE_BATCH })) < PURGE_BATCH) return;
        await new Promise((resolve) => setImmediate(resolve));
      }
    },
  };
}

/** Runs each task now and then every `everyMs`, never two runs of one task at once, until stopped. */
function startTasks(db: Db, tasks: PeriodicTask[], log: (message: string) => void) {
  const timers = new Set<NodeJS.Timeout>();
  const running = new Set<Promise<void>>();
  let isStopping = false;
  const schedule = (task: PeriodicTask, delayMs: number) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      const run = task
        .run(db)
        .then(
          () => {},
          (error) => {
            if (!isStopping)
              log(`[jobs] ${task.name} failed: ${error instanceof Error ? error.message : error}`);
          },
        )
        .finally(() => {
          running.delete(run);
          if (!isStopping) schedule(task, task.everyMs);
        });
      running.add(run);
    }, delayMs);
    timers.add(timer);
  };
  for (const task of tasks) schedule(task, 0);
  return {
    stop: async () => {
      isStopping = true;
      for (const timer of timers) clearTimeout(timer);
      await Promise.allSettled([...running]);
    },
  };
}

/** Waits until every promise has settled, or `ms` has passed, whichever comes first. */
async function settledWithin(promises: Promise<unknown>[], ms: number): Promise<void> {
  if (promises.length === 0 || ms <= 0) return;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  await Promise.race([Promise.allSettled(promises), deadline]);
  clearTimeout(timer);
}

/** The background worker: polls for due jobs and runs them with bounded concurrency until stopped. */
export function startJobRunner(options: RunnerOptions): Runner {
  const { db, handlers, concurrency = 4, idleMs = 250, leaseSeconds = 60, log = console.log } = options;
  const shutdown = new AbortController();
  // Each running job listens for the stop: up to `concurrency` listeners, which past Node's default
  // of 10 (the callback runner runs 16) printed a "possible memory leak" warning into the log.
  setMaxListeners(concurrency + 1, shutdown.signal);
  const runOptions: RunJobOptions = {
    leaseSeconds,
    heartbeatMs: options.heartbeatMs,
    maxRunMs: options.maxRunMs,
    shutdown: shutdown.signal,
    backoffSeconds: options.backoffSeconds,
    clock: options.clock,
    log,
  };
  const workerId = `${hostname()}:${process.pid}`;
  const queues = Object.keys(handlers);
  const inFlight = new Set<Promise<void>>();
  const tasks = startTasks(
    db,
    [
      ...(options.tasks ?? []),
      ...(options.retentionDays === undefined ? [] : [purgeTask(options.retentionDays)]),
    ],
    log,
  );
  let isStopping = false;
  let wake: (() => void) | undefined;
  /** An announcement that came while a look was under way: look once more before sleeping. */
  let isWoken = false;
  const listening = options.wakeOn?.(() => {
    isWoken = true;
    wake?.();
  });

  const loop = async () => {
    // Jobs queued before the listener was in place were missed by it; the first look finds them.
    await listening?.catch((error) =>
      log(`[jobs] cannot listen for new jobs: ${error instanceof Error ? error.message : error}`),
    );
    while (!isStopping) {
      // A turn of the event loop between batches. On PGlite every query completes as a promise
      // continuation with no I/O in between, so a backlog of jobs (a restart after a crash) would
      // otherwise keep the process from accepting a single HTTP request until it was all done.
      await new Promise((resolve) => setImmediate(resolve));
      let claimed: Job[] = [];
      let sleepMs = idleMs;
      isWoken = false;
      try {
        claimed = await claimJobs({
          db,
          queues,
          limit: concurrency - inFlight.size,
          workerId,
          leaseSeconds,
          clock: options.clock,
        });
        // A runner woken by announcements sleeps long, so it must not sleep past a due job; one that
        // polls every idleMs would only pay a second query each look for nothing.
        if (claimed.length === 0 && options.wakeOn) {
          const untilDue = await msUntilNextDue({ db, queues, clock: options.clock });
          if (untilDue !== null) sleepMs = Math.min(idleMs, untilDue);
        }
      } catch (error) {
        if (!isStopping) log(`[jobs] claiming failed: ${error instanceof Error ? error.message : error}`);
      }
      for (const job of claimed) {
        const running = runJob(db, handlers, job, runOptions).finally(() => {
          inFlight.delete(running);
          wake?.();
        });
        inFlight.add(running);
      }
      // A stop that came during the look above found no sleep to wake: do not start one.
      if (!isStopping && ((claimed.length === 0 && !isWoken) || inFlight.size >= concurrency)) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, sleepMs);
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
      await (await listening?.catch(() => undefined))?.stop();
      // Jobs already running get the grace period to finish; then the handlers still running are
      // told to stop (their jobs are retried later, here or by another worker).
      await settledWithin([...inFlight], options.stopGraceMs ?? 0);
      shutdown.abort();
      await Promise.allSettled([...inFlight]);
      await tasks.stop();
    },
  };
}

/**
 * Runs every due job, one at a time, until none is due (jobs may enqueue further due jobs). Tests
 * use it to move the system forward deterministically through the same code the worker runs, with
 * a clock they move forward to make timers and leases run out.
 */
export async function runDueJobs(
  db: Db,
  handlers: Handlers,
  options: { maxJobs?: number; clock?: Clock; log?: (message: string) => void } = {},
): Promise<number> {
  const { maxJobs = 1000, clock, log = () => {} } = options;
  let count = 0;
  while (count < maxJobs) {
    const [job] = await claimJobs({
      db,
      queues: Object.keys(handlers),
      limit: 1,
      workerId: "test",
      leaseSeconds: 60,
      clock,
    });
    if (!job) break;
    await runJob(db, handlers, job, { clock, log });
    count++;
  }
  return count;
}
