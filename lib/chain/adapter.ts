import "server-only";

import type { Db } from "@/lib/db/client";

/** A payout that must wait for Kassa's wallet of its chain to be funded: the job is retried later, nothing is lost. */
export class HotWalletShortError extends Error {
  constructor(reason: string) {
    super(`payout waits: ${reason}`);
    this.name = "HotWalletShortError";
  }
}

export type BroadcastRequest = {
  /** Kassa's own id for the payout (`withdrawal:<id>`): broadcasting it again must not send twice. */
  reference: string;
  currency: string;
  address: string;
  tag: string | null;
  amount: bigint;
};

/**
 * `isAccepted: false` must mean the transaction can never reach the chain (the network refused
 * it): Kassa returns the funds to the merchant on it. Anything uncertain (a timeout, a dropped
 * connection) is thrown instead, and settled later through lookUpBroadcast.
 */
export type BroadcastResult =
  | { isAccepted: true; txid: string; chainTransactionId: number | null }
  | { isAccepted: false; reason: string };

/** What the adapter knows of a reference: the transaction it made for it, or nothing. */
export type BroadcastLookup =
  | { isBroadcast: true; txid: string; chainTransactionId: number | null }
  | { isBroadcast: false };

/**
 * What Kassa needs from a chain (DESIGN.md section 5): addresses come from the HD wallet
 * (lib/chain/derivation.ts), payments go to recordIncomingPayment(). `broadcast` must be idempotent
 * per `reference`, and `lookUpBroadcast` finds what a crashed claim sent:
 * docs/decisions/payout-broadcast-claims.md.
 */
export type ChainAdapter = {
  broadcast: (
    db: Db,
    request: BroadcastRequest,
    options?: { signal?: AbortSignal },
  ) => Promise<BroadcastResult>;
  lookUpBroadcast: (db: Db, request: { reference: string; currency: string }) => Promise<BroadcastLookup>;
  /**
   * Why a payout must wait before it is claimed (a hot wallet short of the amount or the gas), or
   * undefined when it can go. A waiting withdrawal stays `processing` and its job is retried later.
   * Adapters that never run short (the sandbox) leave it out.
   */
  checkFunds?: (db: Db, request: BroadcastRequest) => Promise<string | undefined>;
  /**
   * How payouts of a currency leave together in one transaction (KASSA_PAYOUT_BATCH_SECONDS on the
   * UTXO chains), or undefined when each leaves on its own.
   */
  batchOf?: (currency: string) => PayoutBatching | undefined;
};

/**
 * Batching (lib/withdrawals/broadcast-batch.ts): payouts wait up to `seconds` after the oldest of
 * them became ready, then all those ready leave in one transaction. Both calls take the whole batch;
 * `broadcastMany` answers per reference (one refused destination never holds back the rest) and is
 * idempotent per reference as `broadcast` is.
 */
export type PayoutBatching = {
  seconds: number;
  checkFunds: (db: Db, requests: BroadcastRequest[]) => Promise<string | undefined>;
  broadcastMany: (db: Db, requests: BroadcastRequest[]) => Promise<Map<string, BroadcastResult>>;
};
