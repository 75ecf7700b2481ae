import "server-only";

import { and, eq, sql } from "drizzle-orm";
import { outputScriptOf } from "@/lib/chain/address-codec";
import { getCurrency } from "@/lib/currencies/registry";
import type { Db } from "@/lib/db/client";
import { utxoCoins, utxoPayoutOutputs, utxoPayouts } from "@/lib/db/schema";
import { inTransaction } from "@/lib/db/transaction";
import { runEach } from "@/lib/jobs/run-each";
import { transitionStatus } from "@/lib/transactions/transition-status";
import { bookNetworkFee } from "@/lib/withdrawals/book-network-fee";
import { loadWithdrawal } from "@/lib/withdrawals/load-withdrawal";
import { withdrawalIdOf } from "@/lib/withdrawals/withdrawal-reference";
import type { UtxoNetwork } from "../utxo-network";
import { RPC_NOT_FOUND, UtxoRpcError } from "../utxo-rpc";
import { sendStoredUtxoPayout } from "./send-stored-utxo-payout";
import type { StoredUtxoPayout } from "./sign-utxo-payout";

export type UtxoPayoutPass = { confirmed: number; resent: number };

type NodeView = { confirmations?: number; blockhash?: string };

/** The node's view of a transaction (`getrawtransaction` verbose; the node runs with -txindex), or null when it knows none. */
async function lookUp(network: UtxoNetwork, txid: string): Promise<NodeView | null> {
  try {
    return await network.rpc.call<NodeView>("getrawtransaction", [txid, true]);
  } catch (error) {
    if (error instanceof UtxoRpcError && error.code === RPC_NOT_FOUND) return null;
    throw error;
  }
}

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

/**
 * Follows Kassa's open payouts on a UTXO network to the required confirmations. Not known to the
 * node (dropped from its mempool, or a node that restarted without it): the stored bytes are sent
 * again. In the mempool or not deep enough: nothing yet. Deep enough: in one database transaction,
 * the payout becomes `confirmed`, its change a spendable coin, and each withdrawal it pays
 * `confirmed` (its callback queued with the status change) with its share of the fee booked against
 * the network fee it was charged. Safe in several workers at once: each change is made only from
 * `signed`, under the withdrawal's row lock. A reorganisation before the confirmations only delays
 * this; the same bytes are mined again or resent.
 */
export async function trackUtxoPayouts(db: Db, network: UtxoNetwork): Promise<UtxoPayoutPass> {
  const open = await db
    .select()
    .from(utxoPayouts)
    .where(and(eq(utxoPayouts.network, network.network), eq(utxoPayouts.status, "signed")))
    .orderBy(utxoPayouts.id);
  const pass: UtxoPayoutPass = { confirmed: 0, resent: 0 };
  if (open.length === 0) return pass;
  const required = network.confirmations[network.currency] ?? 1;
  const tip = await network.rpc.call<number>("getblockcount");
  await runEach(
    open,
    async (payout) => {
      const seen = await lookUp(network, payout.txid);
      if (!seen) {
        await sendStoredUtxoPayout(network, payout);
        pass.resent++;
        return;
      }
      const confirmations = seen.confirmations ?? 0;
      if (confirmations < required || !seen.blockhash) return;
      const height = tip - confirmations + 1;
      if (await settlePayout(db, network, payout, { height, hash: seen.blockhash })) pass.confirmed++;
    },
    (payout) => `payout ${payout.txid}`,
  );
  return pass;
}

async function settlePayout(
  db: Db,
  network: UtxoNetwork,
  payout: StoredUtxoPayout,
  block: { height: number; hash: string },
): Promise<boolean> {
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
      .set({ status: "confirmed", blockHeight: block.height, blockHash: block.hash, settledAt: new Date() })
      .where(and(eq(utxoPayouts.id, payout.id), eq(utxoPayouts.status, "signed")))
      .returning({ id: utxoPayouts.id });
    if (!changed) return false; // another tracker settled it first
    await tx
      .update(utxoCoins)
      .set({ status: "spendable", updatedAt: sql`now()` })
      .where(and(eq(utxoCoins.changeOfPayoutId, payout.id), eq(utxoCoins.status, "pending")));
    const shares = feeShares(
      payout.fee,
      outputs.map((o) => outputBytesOf(network, o.address)),
    );
    for (const [index, record] of records.entries()) {
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
