import type { Db } from "@/lib/db/client";

export type BroadcastRequest = {
  /** Kassa's own id for the payout: broadcasting it again must not send twice. */
  reference: string;
  currency: string;
  address: string;
  tag: string | null;
  amount: bigint;
};

export type BroadcastResult =
  | { isAccepted: true; txid: string; chainTransactionId: number | null }
  | { isAccepted: false; reason: string };

/**
 * What Kassa needs from a chain (DESIGN.md section 5). Deposit addresses come from the HD wallet
 * (lib/chain/derivation.ts); incoming payments are reported to recordIncomingPayment() and
 * confirmations counted by scanConfirmations(), whoever feeds them. Broadcasting must be
 * idempotent per `reference`, so a retried job never pays twice.
 */
export type ChainAdapter = {
  broadcast: (db: Db, request: BroadcastRequest) => Promise<BroadcastResult>;
};
