import "server-only";

import {
  type BroadcastRequest,
  type BroadcastResult,
  type ChainAdapter,
  HotWalletShortError,
} from "@/lib/chain/adapter";
import { outputScriptOf } from "@/lib/chain/address-codec";
import { getCurrency } from "@/lib/currencies/registry";
import type { Db } from "@/lib/db/client";
import { crashPoint } from "@/lib/jobs/crash-point";
import type { UtxoNetwork } from "../utxo-network";
import { type FeeRatePolicy, payoutFeeRate } from "./payout-fee-rate";
import { sendStoredUtxoPayout } from "./send-stored-utxo-payout";
import {
  findStoredPayout,
  type StoredUtxoPayout,
  selectCoins,
  signUtxoPayout,
  spendableCoins,
} from "./sign-utxo-payout";

export type UtxoPayoutSources = {
  network: () => Promise<UtxoNetwork>;
  /** The HD seed; only the job runner opens it. */
  seed: (db: Db) => Promise<Uint8Array>;
  feeRates: FeeRatePolicy;
  /** KASSA_PAYOUT_BATCH_SECONDS: 0 (or absent) sends each payout on its own. */
  batchSeconds?: number;
};

/** Why a destination can never be paid on this network, or undefined when it can. */
function refusalOf(network: UtxoNetwork, request: BroadcastRequest): string | undefined {
  if (request.tag) return `${request.currency} payouts carry no tag`;
  if (!outputScriptOf(getCurrency(request.currency).addressFormat!, request.address, network.net))
    return `${request.address} is not an address of the ${network.chain} ${network.network} network`;
  if (request.amount <= 0n) return "the amount is not positive";
  return undefined;
}

/** Why these payouts must wait now (fees above the ceiling, coins short), or the fee rate to send them at. */
async function waitReason(
  db: Db,
  network: UtxoNetwork,
  requests: readonly BroadcastRequest[],
  policy: FeeRatePolicy,
): Promise<{ kind: "wait"; reason: string } | { kind: "go"; rate: bigint }> {
  const rate = await payoutFeeRate(network, policy);
  if (rate.kind === "too_high") return { kind: "wait", reason: rate.reason };
  const format = getCurrency(network.currency).addressFormat!;
  // A dry run of the selection on the coins as they are, the first destination standing in for change.
  const selected = selectCoins(
    network,
    await spendableCoins(db, network.network, false),
    requests.map((r) => ({ script: outputScriptOf(format, r.address, network.net)!, amount: r.amount })),
    rate.perVbyte,
    requests[0]!.address,
  );
  if (!selected)
    return {
      kind: "wait",
      reason: `Kassa's spendable ${network.currency} coins do not cover the payout${requests.length > 1 ? "s" : ""} and the network fee`,
    };
  return { kind: "go", rate: rate.perVbyte };
}

const sent = (payout: StoredUtxoPayout): BroadcastResult => ({
  isAccepted: true,
  txid: payout.txid,
  chainTransactionId: null,
});

/**
 * Sends payouts, in one transaction for those not sent yet: a reference with a stored transaction
 * answers with it (its bytes sent again), one the network can never carry is refused on its own,
 * and the rest are signed together and stored before anything is sent.
 */
async function sendPayouts(
  db: Db,
  sources: UtxoPayoutSources,
  requests: readonly BroadcastRequest[],
): Promise<Map<string, BroadcastResult>> {
  const network = await sources.network();
  const results = new Map<string, BroadcastResult>();
  const toSend = new Map<number, StoredUtxoPayout>();
  const fresh: BroadcastRequest[] = [];
  for (const request of requests) {
    const stored = await findStoredPayout(db, [request.reference]);
    const refusal = stored ? undefined : refusalOf(network, request);
    if (stored) {
      toSend.set(stored.id, stored);
      results.set(request.reference, sent(stored));
    } else if (refusal) results.set(request.reference, { isAccepted: false, reason: refusal });
    else fresh.push(request);
  }
  if (fresh.length > 0) {
    const wait = await waitReason(db, network, fresh, sources.feeRates);
    if (wait.kind === "wait") throw new HotWalletShortError(wait.reason);
    const signed = await signUtxoPayout(db, {
      network,
      seed: await sources.seed(db),
      outputs: fresh.map((r) => ({ reference: r.reference, address: r.address, baseAmount: r.amount })),
      feeRate: wait.rate,
    });
    if (signed.kind === "short") throw new HotWalletShortError(signed.reason);
    crashPoint("utxo-payout-signed"); // stored, not sent
    // A racing signer may have stored some of these first: each answers with its own transaction.
    for (const request of fresh) {
      const stored = await findStoredPayout(db, [request.reference]);
      if (!stored) throw new Error(`${request.reference} was not signed; it is sent on the next attempt`);
      toSend.set(stored.id, stored);
      results.set(request.reference, sent(stored));
    }
  }
  for (const payout of toSend.values()) await sendStoredUtxoPayout(network, payout);
  crashPoint("utxo-payout-sent"); // sent, its txid not yet recorded on the withdrawals
  return results;
}

/**
 * Payouts from Kassa's coins on a Bitcoin Core-family node (DESIGN.md section 5). Signed once per
 * reference and stored before sending; later calls and `lookUpBroadcast` resend the same bytes, and a
 * stored payout counts as broadcast (resent until mined: track-utxo-payouts.ts). With batching,
 * payouts waiting together share a transaction (`batchOf`). Amounts are exact (8 decimals, as the ledger).
 */
export function utxoPayoutAdapter(sources: UtxoPayoutSources): ChainAdapter {
  const checkFunds = async (db: Db, requests: BroadcastRequest[]) => {
    const network = await sources.network();
    const unsent: BroadcastRequest[] = [];
    for (const request of requests)
      if (!(await findStoredPayout(db, [request.reference])) && !refusalOf(network, request))
        unsent.push(request); // a refused one is refused by broadcast, and its funds go back
    if (unsent.length === 0) return undefined;
    const wait = await waitReason(db, network, unsent, sources.feeRates);
    return wait.kind === "wait" ? wait.reason : undefined;
  };
  const batchSeconds = sources.batchSeconds ?? 0;
  return {
    checkFunds: (db, request) => checkFunds(db, [request]),
    broadcast: async (db, request) => (await sendPayouts(db, sources, [request])).get(request.reference)!,
    lookUpBroadcast: async (db, request) => {
      const payout = await findStoredPayout(db, [request.reference]);
      if (!payout) return { isBroadcast: false };
      // Best effort: the payout tracker keeps resending it until it is mined.
      await sendStoredUtxoPayout(await sources.network(), payout).catch((error: Error) =>
        console.warn(`[chain] resending ${request.reference} failed: ${error.message.split("\n")[0]}`),
      );
      return { isBroadcast: true, txid: payout.txid, chainTransactionId: null };
    },
    batchOf: () =>
      batchSeconds > 0
        ? {
            seconds: batchSeconds,
            checkFunds,
            broadcastMany: (db, requests) => sendPayouts(db, sources, requests),
          }
        : undefined,
  };
}
