import "server-only";

import type { Clock } from "@/lib/clock";
import type { Db } from "@/lib/db/client";

/** A claimed job: what its handler gets, and the lease that entitles the worker to finish it. */
export type Job = {
  id: number;
  queue: string;
  payload: Record<string, unknown>;
  /** This claim's attempt number (1 for the first run). */
  attempts: number;
  maxAttempts: number;
  /** Minted by the claim: only the holder of the current token may extend the lease or record the outcome. */
  leaseToken: string;
};

/**
 * What the runner tells a handler. `signal` aborts when the job's lease was lost (another worker
 * may have claimed it): a long handler checks it between steps and stops, since nothing it
 * records as the job's outcome will count any more. `clock` is the runner's "now" (the system clock
 * in production): a handler that judges time (an invoice's deadline) reads it from there.
 */
export type JobContext = { signal: AbortSignal; clock: Clock };

export type JobHandler = (job: Job, db: Db, context: JobContext) => Promise<void>;
export type Handlers = Record<string, JobHandler>;
