import "server-only";

/** A payout (or a batch of them) the network cannot carry yet, its wallet short of funds: it stays `processing`. */
export class PayoutWaitingError extends Error {
  constructor(reason: string) {
    super(`withdrawal waits in processing: ${reason}`);
    this.name = "PayoutWaitingError";
  }
}
