import "server-only";

import type { BroadcastRequest, ChainAdapter } from "@/lib/chain/adapter";
import { outputScriptOf } from "@/lib/chain/address-codec";
import { HotWalletShortError } from "@/lib/chain/evm/payout/evm-payout-adapter";
import { getCurrency } from "@/lib/currencies/registry";
import type { Db } from "@/lib/db/client";
import type { UtxoNetwork } from "../utxo-network";
import { type FeeRatePolicy, payoutFeeRate } from "./payout-fee-rate";
import { sendStoredUtxoPayout } from "./send-stored-utxo-payout";
import { findStoredPayout, selectCoins, signUtxoPayout, spendableCoins } from "./sign-utxo-payout";

export type UtxoPayoutSources = {
  network: () => Promise<UtxoNetwork>;
  /** The HD seed; only the job runner opens it. */
  seed: (db: Db) => Promise<Uint8Array>;
  feeRates: FeeRatePolicy;
};

/** Why a destination can never be paid on this network, or undefined when it can. */
function refusalOf(network: UtxoNetwork, request: BroadcastRequest): string | undefined {
  if (request.tag) return `${request.currency} payouts carry no tag`;
  if (!outputScriptOf(getCurrency(request.currency).addressFormat!, request.address, network.net))
    return `${request.address} is not an address of the ${network.chain} ${network.network} network`;
  if (request.amount <= 0n) return "the amount is not positive";
  return undefined;
}

/** Why the payout must wait now (fees above the ceiling, coins short), or undefined when it can go. */
async function waitReason(
  db: Db,
  network: UtxoNetwork,
  request: BroadcastRequest,
  policy: FeeRatePolicy,
): Promise<{ kind: "wait"; reason: string } | { kind: "go"; rate: bigint }> {
  const rate = await payoutFeeRate(network, policy);
  if (rate.kind === "too_high") return { kind: "wait", reason: rate.reason };
  const format = getCurrency(request.currency).addressFormat!;
  const script = outputScriptOf(format, request.address, network.net)!;
  // A dry run of the selection on the coins as they are, with the destination standing in for change.
  const selected = selectCoins(
    network,
    await spendableCoins(db, network.network, false),
    [{ script, amount: request.amount }],
    rate.perVbyte,
    request.address,
  );
  if (!selected)
    return {
      kind: "wait",
      reason: `Kassa's spendable ${request.currency} coins do not cover the payout and its fee`,
    };
  return { kind: "go", rate: rate.perVbyte };
}

/**
 * Payouts from Kassa's own coins on a Bitcoin Core-family node (DESIGN.md section 5). `broadcast`
 * signs once per reference and stores the signed transaction (its coins taken under their row locks)
 * before sending it; every later call for the reference, and `lookUpBroadcast` after a crash, sends
 * the same bytes again, so a payout goes out once whatever fails in between. A stored transaction
 * counts as broadcast: its coins are spent, and it is resent until mined (track-utxo-payouts.ts).
 * The amounts are exact: these coins have 8 decimals, as the ledger does.
 */
export function utxoPayoutAdapter(sources: UtxoPayoutSources): ChainAdapter {
  return {
    checkFunds: async (db, request) => {
      if (await findStoredPayout(db, [request.reference])) return undefined;
      const network = await sources.network();
      if (refusalOf(network, request)) return undefined; // broadcast refuses it, and the funds go back
      const wait = await waitReason(db, network, request, sources.feeRates);
      return wait.kind === "wait" ? wait.reason : undefined;
    },
    broadcast: async (db, request) => {
      const network = await sources.network();
      let payout = await findStoredPayout(db, [request.reference]);
      if (!payout) {
        const refusal = refusalOf(network, request);
        if (refusal) return { isAccepted: false, reason: refusal };
        const wait = await waitReason(db, network, request, sources.feeRates);
        if (wait.kind === "wait") throw new HotWalletShortError(wait.reason);
        const signed = await signUtxoPayout(db, {
          network,
          seed: await sources.seed(db),
          outputs: [{ reference: request.reference, address: request.address, baseAmount: request.amount }],
          feeRate: wait.rate,
        });
        if (signed.kind === "short") throw new HotWalletShortError(signed.reason);
        payout = signed.payout;
      }
      await sendStoredUtxoPayout(network, payout);
      return { isAccepted: true, txid: payout.txid, chainTransactionId: null };
    },
    lookUpBroadcast: async (db, request) => {
      const payout = await findStoredPayout(db, [request.reference]);
      if (!payout) return { isBroadcast: false };
      // Best effort: the payout tracker keeps resending it until it is mined.
      await sendStoredUtxoPayout(await sources.network(), payout).catch((error: Error) =>
        console.warn(`[chain] resending ${request.reference} failed: ${error.message.split("\n")[0]}`),
      );
      return { isBroadcast: true, txid: payout.txid, chainTransactionId: null };
    },
  };
}
