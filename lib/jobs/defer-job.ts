import "server-only";

/**
 * Thrown by a handler whose job cannot do its work yet, by design rather than by failure (a payout
 * waiting for its batch to fill): the job runs again after `seconds`, the attempt is given back
 * (it does not count towards the job's attempts) and nothing is logged as a failure.
 */
export class DeferJobError extends Error {
  constructor(
    readonly seconds: number,
    reason: string,
  ) {
    super(reason);
    this.name = "DeferJobError";
  }
}
