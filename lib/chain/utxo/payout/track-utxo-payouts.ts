import "server-only";

import { and, eq, sql } from "drizzle-orm";
import { outputScriptOf } from "@/lib/chain/address-codec";
import { bookChainFee } from "@/lib/chain/book-chain-fee";
import { type Clock, systemClock } from "@/lib/clock";
import { getCurrency } from "@/lib/currencies/registry";
import type { Db } from "@/lib/db/client";
import {
  type UtxoPayoutVersion,
  utxoCoins,
  utxoPayoutOutputs,
  utxoPayouts,
  withdrawals,
} from "@/lib/db/schema";
import { inTransaction } from "@/lib/db/transaction";
import { runEach } from "@/lib/jobs/run-each";
import { transitionStatus } from "@/lib/transactions/transition-status";
import { bookNetworkFee } from "@/lib/withdrawals/book-network-fee";
import { loadWithdrawal } from "@/lib/withdrawals/load-withdrawal";
import { withdrawalIdOf } from "@/lib/withdrawals/withdrawal-reference";
import type { UtxoNetwork } from "../utxo-network";
import { findNodeTransaction } from "../utxo-rpc";
import type { FeeRatePolicy } from "./payout-fee-rate";
import { findSpentInput, recordPayoutIncident } from "./record-payout-incident";
import { replaceUtxoPayout } from "./replace-utxo-payout";
import { sendStoredUtxoPayout } from "./send-stored-utxo-payout";
import type { StoredUtxoPayout } from "./sign-utxo-payout";

export type UtxoPayoutPass = { confirmed: number; resent: number; replaced: number; incidents: number };

type NodeView = { confirmations?: number; blockhash?: string };

/**
 * Each payout's share of its transaction's fee, in proportion to the bytes its output adds (8 for
 * the amount, 1 for the script's length, the script): what it would have cost alone beyond what the
 * payouts share (the header, the inputs, the change) is split the same way. Rounded down, the
 * indivisible remainder to the first payout, so the shares sum to the fee exactly.
 */
export function feeShares(fee: bigint, outputBytes: readonly number[]): bigint[] {
  const total = BigInt(outputBytes.reduce((sum, bytes) => sum + bytes, 0));
  const shares = outputBytes.map((bytes) => (fee * BigInt(bytes)) / total);
  shares[0]! += fee - shares.reduce((sum, share) => sum + share, 0n);
  return shares;
}

/** The bytes an output paying `address` adds to a transaction. */
function outputBytesOf(network: UtxoNetwork, address: string): number {
  const script = outputScriptOf(getCurrency(network.currency).addressFormat!, address, network.net);
  return 8 + 1 + (script?.length ?? 0);
}

/** Automatic replace-by-fee: how long a payout may stay unmined, and what the replacement may pay. */
export type UtxoReplacementPolicy = {
  afterSeconds: number;
  feeRates: FeeRatePolicy;
  seed: (db: Db) => Promise<Uint8Array>;
  clock?: Clock;
};

/**
 * Why each payout was last not replaced, as logged: a payout the ceiling holds back is looked at
 * every pass, and the operator needs the line once per payout and reason. Per process.
 */
const notReplacedLogged = new Map<number, string>();

/** The version of a payout the node has mined (the current one or one it replaced), with its confirmations. */
export async function findMinedVersion(network: UtxoNetwork, payout: StoredUtxoPayout) {
  const versions: (UtxoPayoutVersion | null)[] = [null, ...[...payout.replaced].reverse()];
  let isKnown = false;
  for (const version of versions) {
    const seen = await findNodeTransaction<NodeView>(network.rpc, version?.txid ?? payout.txid);
    if (!seen) continue;
    isKnown = true;
    if ((seen.confirmations ?? 0) > 0 && seen.blockhash)
      return { isKnown, mined: { version, confirmations: seen.confirmations!, blockhash: seen.blockhash } };
  }
  return { isKnown, mined: undefined };
}

/**
 * Follows Kassa's open payouts on a UTXO network to the required confirmations: every version looked
 * up, resent when the node lost it (an incident if an input was spent elsewhere), replaced by fee when
 * stuck, confirmed with its change and fee booked in one transaction, only from `signed` under the
 * withdrawal's row lock. docs/decisions/payout-tracking.md.
 */
export async function trackUtxoPayouts(
  db: Db,
  network: UtxoNetwork,
  options: { replacement?: UtxoReplacementPolicy } = {},
): Promise<UtxoPayoutPass> {
  const { replacement } = options;
  const open = await db
    .select()
    .from(utxoPayouts)
    .where(and(eq(utxoPayouts.network, network.network), eq(utxoPayouts.status, "signed")))
    .orderBy(utxoPayouts.id);
  const pass: UtxoPayoutPass = { confirmed: 0, resent: 0, replaced: 0, incidents: 0 };
  if (open.length === 0) return pass;
  const required = network.confirmations[network.currency] ?? 1;
  const tip = await network.rpc.call<number>("getblockcount");
  await runEach(
    open,
    async (payout) => {
      const { isKnown, mined } = await findMinedVersion(network, payout);
      if (!mined) {
        if (!isKnown) {
          try {
            await sendStoredUtxoPayout(network, payout);
          } catch (error) {
            const spentInput = await findSpentInput(network, payout);
            if (!spentInput) throw error;
            if (await recordPayoutIncident(db, { network, payout, spentInput })) pass.incidents++;
            return;
          }
          pass.resent++;
        }
        if (replacement && (await replaceIfDue(db, network, payout, replacement))) pass.replaced++;
        return;
      }
      notReplacedLogged.delete(payout.id);
      if (mined.confirmations < required) return;
      const block = { height: tip - mined.confirmations + 1, hash: mined.blockhash };
      if (await settlePayout(db, network, payout, mined.version, block)) pass.confirmed++;
    },
    (payout) => `payout ${payout.txid}`,
  );
  return pass;
}

/** Replaces a payout unmined for longer than the policy allows; a refusal is logged once per reason. */
async function replaceIfDue(
  db: Db,
  network: UtxoNetwork,
  payout: StoredUtxoPayout,
  policy: UtxoReplacementPolicy,
): Promise<boolean> {
  const waitedMs = (policy.clock ?? systemClock).now().getTime() - payout.sentAt.getTime();
  if (waitedMs < policy.afterSeconds * 1000) return false;
  const outcome = await replaceUtxoPayout(db, {
    network,
    payout,
    seed: await policy.seed(db),
    policy: policy.feeRates,
  });
  if (outcome.kind === "replaced") {
    notReplacedLogged.delete(payout.id);
    console.warn(
      `[chain] ${network.currency} payout ${outcome.previousTxid} unmined after ${Math.round(waitedMs / 1000)} s: replaced by ${outcome.payout.txid} at ${outcome.payout.feeRate} per virtual byte`,
    );
    return true;
  }
  if (notReplacedLogged.get(payout.id) !== outcome.reason) {
    notReplacedLogged.set(payout.id, outcome.reason);
    console.warn(`[chain] ${network.currency} payout ${payout.txid} is not replaced: ${outcome.reason}`);
  }
  return false;
}

async function settlePayout(
  db: Db,
  network: UtxoNetwork,
  payout: StoredUtxoPayout,
  version: UtxoPayoutVersion | null,
  block: { height: number; hash: string },
): Promise<boolean> {
  const minedTxid = version?.txid ?? payout.txid;
  return inTransaction(db, async (tx) => {
    const outputs = await tx
      .select({ reference: utxoPayoutOutputs.reference, address: utxoPayoutOutputs.address })
      .from(utxoPayoutOutputs)
      .where(eq(utxoPayoutOutputs.payoutId, payout.id))
      .orderBy(utxoPayoutOutputs.vout);
    const records = [];
    for (const output of outputs) {
      const record = await loadWithdrawal(tx, withdrawalIdOf(output.reference), true);
      if (!record) throw new Error(`payout ${payout.txid} pays ${output.reference}, which is no withdrawal`);
      // Its claim has not recorded the txid yet: the broadcast job (or the claim sweep) does that first.
      if (record.status === "sending" && !record.withdrawal.txid) return false;
      records.push(record);
    }
    const [changed] = await tx
      .update(utxoPayouts)
      .set({
        status: "confirmed",
        blockHeight: block.height,
        blockHash: block.hash,
        settledAt: new Date(),
        // An earlier version was mined: the payout is what the chain holds.
        ...(version && {
          txid: version.txid,
          rawTransaction: version.rawTransaction,
          fee: BigInt(version.fee),
          vsize: version.vsize,
          feeRate: BigInt(version.feeRate),
        }),
      })
      .where(and(eq(utxoPayouts.id, payout.id), eq(utxoPayouts.status, "signed")))
      .returning({ id: utxoPayouts.id, fee: utxoPayouts.fee });
    if (!changed) return false; // another tracker settled it first
    if (version?.change)
      await tx
        .update(utxoCoins)
        .set({ txid: version.txid, vout: version.change.vout, baseAmount: BigInt(version.change.baseAmount) })
        .where(eq(utxoCoins.changeOfPayoutId, payout.id));
    await tx
      .update(utxoCoins)
      .set({ status: "spendable", updatedAt: sql`now()` })
      .where(and(eq(utxoCoins.changeOfPayoutId, payout.id), eq(utxoCoins.status, "pending")));
    if (records.length === 0) {
      // A consolidation: Kassa paying itself, its fee Kassa's own.
      await bookChainFee(tx, {
        paid: changed.fee,
        currency: network.currency,
        kind: "utxo_consolidation",
        memo: `Consolidation ${minedTxid} of Kassa's ${network.currency} coins`,
      });
      return true;
    }
    const shares = feeShares(
      changed.fee,
      outputs.map((o) => outputBytesOf(network, o.address)),
    );
    for (const [index, record] of records.entries()) {
      if (record.withdrawal.txid !== minedTxid) {
        // A replacement (or the version it replaced) was mined: the merchant sees the txid on chain.
        await tx.update(withdrawals).set({ txid: minedTxid }).where(eq(withdrawals.transactionId, record.id));
        record.withdrawal.txid = minedTxid;
      }
      await bookNetworkFee(tx, {
        record,
        paid: shares[index]!,
        paidCurrency: network.currency,
        isCharged: true,
      });
      if (record.status !== "sending") continue;
      await transitionStatus(tx, {
        transactionId: record.id,
        kind: "withdrawal",
        to: "confirmed",
        reason: "confirmed",
      });
    }
    return true;
  });
}
