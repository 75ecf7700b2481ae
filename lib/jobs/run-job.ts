import "server-only";

import { sql } from "drizzle-orm";
import { type Clock, sqlNow, systemClock } from "@/lib/clock";
import { type Db, queryRows } from "@/lib/db/client";
import { DeferJobError } from "./defer-job";
import { describeError } from "./describe-error";
import type { Handlers, Job } from "./job";

export const defaultBackoffSeconds = (attempt: number) => Math.min(2 ** attempt, 300);

export type RunJobOptions = {
  /** The lease the claim took; the heartbeat renews it for as long again. */
  leaseSeconds?: number;
  /** How often the lease is renewed while the handler runs; a third of the lease by default. */
  heartbeatMs?: number;
  /**
   * The longest a handler may keep its job: past it the lease is no longer renewed and the handler
   * is told to stop, so a hung handler (a network call that never answers) cannot hold a job
   * forever; when the lease runs out another worker runs the job again. 15 minutes by default.
   */
  maxRunMs?: number;
  /** Aborts when the runner shuts down: the handler is told to stop, and the job is retried later. */
  shutdown?: AbortSignal;
  backoffSeconds?: (attempt: number) => number;
  /** The runner's "now": lease renewals, retry times and the handler's context read it. */
  clock?: Clock;
  log?: (message: string) => void;
};

type Outcome =
  | { kind: "done" }
  | { kind: "retry"; message: string; delaySeconds: number }
  | { kind: "deferred"; message: string; delaySeconds: number }
  | { kind: "failed"; message: string };

export const DEFAULT_MAX_RUN_MS = 15 * 60 * 1000;

/**
 * Renews the job's lease every `heartbeatMs` while its handler runs. A lease that already ran out
 * is not renewed: another worker may have claimed the job by then, so the handler is told to stop
 * (its signal aborts) rather than keep working beside that worker. Past `maxRunMs`, or when the
 * runner shuts down, the handler is told to stop too, and the lease is left to run out.
 */
function keepLease(
  db: Db,
  job: Job,
  options: {
    leaseSeconds: number;
    heartbeatMs: number;
    maxRunMs: number;
    shutdown?: AbortSignal;
    clock: Clock;
    log: (m: string) => void;
  },
) {
  const controller = new AbortController();
  const startedAt = Date.now();
  const onShutdown = () => {
    clearInterval(timer);
    controller.abort(new Error(`job ${job.id} stopped: the worker is shutting down`));
  };
  let beating: Promise<void> | undefined;
  const beat = async () => {
    if (Date.now() - startedAt > options.maxRunMs) {
      clearInterval(timer);
      options.log(
        `[jobs] ${job.queue} #${job.id} attempt ${job.attempts} ran longer than ${options.maxRunMs / 1000} s; ` +
          "telling the handler to stop",
      );
      controller.abort(new Error(`job ${job.id} ran longer than ${options.maxRunMs / 1000} s`));
      return;
    }
    try {
      const now = sqlNow(options.clock);
      const renewed = await queryRows<{ id: string | number }>(
        db,
        sql`update jobs set locked_until = ${now} + make_interval(secs => ${options.leaseSeconds})
            where id = ${job.id} and lease_token = ${job.leaseToken} and status = 'queued' and locked_until > ${now}
            returning id`,
      );
      if (renewed.length > 0) return;
      clearInterval(timer);
      options.log(
        `[jobs] ${job.queue} #${job.id} attempt ${job.attempts} lost its lease; telling the handler to stop`,
      );
      controller.abort(new Error(`job ${job.id} lost its lease`));
    } catch (error) {
      // The next beat tries again; if the lease runs out meanwhile, the fence keeps the outcome safe.
      options.log(`[jobs] could not renew the lease of #${job.id}: ${describeError(error)}`);
    } finally {
      beating = undefined;
    }
  };
  const timer = setInterval(() => {
    beating ??= beat();
  }, options.heartbeatMs);
  if (options.shutdown?.aborted) onShutdown();
  else options.shutdown?.addEventListener("abort", onShutdown, { once: true });
  return {
    signal: controller.signal,
    stop: async () => {
      clearInterval(timer);
      options.shutdown?.removeEventListener("abort", onShutdown);
      await beating;
    },
  };
}

/**
 * Writes the outcome, fenced by the lease token: it changes the row only if no other worker has
 * claimed the job since this attempt did. A stale holder's outcome (it outlived its lease and the
 * job ran again elsewhere) changes nothing and is logged. The token is cleared with the write, so
 * an outcome is recorded at most once per claim.
 */
async function recordOutcome(db: Db, job: Job, outcome: Outcome, clock: Clock): Promise<boolean> {
  const now = sqlNow(clock);
  const fence = sql`where id = ${job.id} and lease_token = ${job.leaseToken} returning id`;
  const write =
    outcome.kind === "done"
      ? sql`update jobs set status = 'done', finished_at = ${now}, locked_until = null, lease_token = null,
                 last_error = null ${fence}`
      : outcome.kind === "failed"
        ? sql`update jobs set status = 'failed', finished_at = ${now}, locked_until = null, lease_token = null,
                   last_error = ${outcome.message} ${fence}`
        : sql`update jobs set locked_until = null, lease_token = null, last_error = ${outcome.message},
                   ${outcome.kind === "deferred" ? sql`attempts = attempts - 1,` : sql``}
                   run_at = ${now} + make_interval(secs => ${outcome.delaySeconds}) ${fence}`;
  return (await queryRows(db, write)).length > 0;
}

/**
 * Runs one claimed job and records the outcome: done, retry later, or failed for good. The lease
 * is renewed while the handler runs, and the outcome is recorded only by the holder of the
 * current lease and attempt.
 */
export async function runJob(
  db: Db,
  handlers: Handlers,
  job: Job,
  options: RunJobOptions = {},
): Promise<void> {
  const {
    leaseSeconds = 60,
    backoffSeconds = defaultBackoffSeconds,
    clock = systemClock,
    log = console.log,
  } = options;
  const heartbeatMs = options.heartbeatMs ?? (leaseSeconds * 1000) / 3;
  const maxRunMs = options.maxRunMs ?? DEFAULT_MAX_RUN_MS;
  const lease = keepLease(db, job, {
    leaseSeconds,
    heartbeatMs,
    maxRunMs,
    shutdown: options.shutdown,
    clock,
    log,
  });
  let outcome: Outcome;
  try {
    const handler = handlers[job.queue];
    if (!handler) throw new Error(`no handler for queue ${job.queue}`);
    await handler(job, db, { signal: lease.signal, clock });
    outcome = { kind: "done" };
  } catch (error) {
    const message = describeError(error);
    if (error instanceof DeferJobError) {
      outcome = { kind: "deferred", message, delaySeconds: error.seconds };
    } else {
      const isFinal = job.attempts >= job.maxAttempts;
      log(
        `[jobs] ${job.queue} #${job.id} attempt ${job.attempts} failed${isFinal ? " for the last time" : ""}: ${message}`,
      );
      outcome = isFinal
        ? { kind: "failed", message }
        : { kind: "retry", message, delaySeconds: backoffSeconds(job.attempts) };
    }
  }
  await lease.stop();
  try {
    const isRecorded = await recordOutcome(db, job, outcome, clock);
    if (!isRecorded) {
      log(
        `[jobs] ${job.queue} #${job.id} attempt ${job.attempts}: another worker holds the job now; ` +
          `this attempt's outcome (${outcome.kind}) is not recorded`,
      );
    }
  } catch (recordError) {
    log(`[jobs] could not record the outcome of #${job.id}: ${describeError(recordError)}`);
  }
}
