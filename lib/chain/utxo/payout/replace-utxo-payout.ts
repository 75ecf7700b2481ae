import "server-only";

import { hex } from "@scure/base";
import { Transaction } from "@scure/btc-signer";
import { and, eq, sql } from "drizzle-orm";
import { outputScriptOf } from "@/lib/chain/address-codec";
import { getCurrency } from "@/lib/currencies/registry";
import { type Db, queryRows } from "@/lib/db/client";
import { type UtxoPayoutVersion, utxoCoins, utxoPayouts } from "@/lib/db/schema";
import { inTransaction } from "@/lib/db/transaction";
import type { UtxoNetwork } from "../utxo-network";
import { parseCoins } from "../utxo-rpc";
import { type FeeRatePolicy, payoutFeeRate } from "./payout-fee-rate";
import { sendStoredUtxoPayout } from "./send-stored-utxo-payout";
import { signAtFeeRate } from "./sign-at-fee-rate";
import type { StoredUtxoPayout } from "./sign-utxo-payout";
import { privateKeysOf } from "./utxo-keys";

/** Below this a change output would be dust (P2WPKH at the default dust relay rate): no room to bump. */
const MIN_CHANGE = 294n;

/** A replacement raises the fee rate by at least an eighth (BIP 125 needs more than the old; nodes want a margin). */
const minimumRaise = (rate: bigint) => rate + (rate + 7n) / 8n;

export type Replacement =
  | { kind: "replaced"; payout: StoredUtxoPayout; previousTxid: string }
  | { kind: "refused"; reason: string };

/** The version of a payout as stored now, to keep among `replaced`. */
export function versionOf(
  payout: StoredUtxoPayout,
  change: { vout: number; baseAmount: bigint } | null,
): UtxoPayoutVersion {
  return {
    txid: payout.txid,
    rawTransaction: payout.rawTransaction,
    fee: payout.fee.toString(),
    vsize: payout.vsize,
    feeRate: payout.feeRate.toString(),
    change: change && { vout: change.vout, baseAmount: change.baseAmount.toString() },
  };
}

/** The fee rate a replacement pays: the operator's, or the node's estimate; at least an eighth above the old and the node's increment. */
async function replacementRate(
  network: UtxoNetwork,
  payout: StoredUtxoPayout,
  policy: FeeRatePolicy,
  asked: bigint | undefined,
): Promise<{ rate: bigint } | { reason: string }> {
  const { incrementalfee } = await network.rpc.call<{ incrementalfee: string }>("getnetworkinfo");
  const increment = (parseCoins(incrementalfee) + 999n) / 1000n;
  const floor = [minimumRaise(payout.feeRate), payout.feeRate + increment].reduce((a, b) => (a > b ? a : b));
  let rate = asked;
  if (rate === undefined) {
    const now = await payoutFeeRate(network, { ...policy, max: Number.MAX_SAFE_INTEGER });
    rate = now.kind === "ready" && now.perVbyte > floor ? now.perVbyte : floor;
  }
  if (rate < floor)
    return {
      reason: `a replacement must pay at least ${floor} per virtual byte (it paid ${payout.feeRate})`,
    };
  if (rate > BigInt(policy.max))
    return { reason: `${rate} per virtual byte is above the ceiling of ${policy.max}` };
  return { rate };
}

/**
 * Replaces an unmined payout by fee (BIP 125): same inputs and outputs in order, only the change lower.
 * Signed and stored in one transaction under the payout's row lock (a second bump of that version
 * stops), the old version kept in `replaced`; only one can be mined, and the tracker settles whichever
 * is. Then sent. Refused for a payout without change, or whose change cannot pay more.
 */
export async function replaceUtxoPayout(
  db: Db,
  input: {
    network: UtxoNetwork;
    payout: StoredUtxoPayout;
    seed: Uint8Array;
    policy: FeeRatePolicy;
    /** The operator's fee rate (base units per virtual byte); the node's estimate when absent. */
    feeRate?: bigint;
  },
): Promise<Replacement> {
  const { network, payout } = input;
  const chosen = await replacementRate(network, payout, input.policy, input.feeRate);
  if ("reason" in chosen) return { kind: "refused", reason: chosen.reason };
  const format = getCurrency(network.currency).addressFormat!;
  const result = await inTransaction(db, async (tx): Promise<Replacement> => {
    const [locked] = await tx
      .select()
      .from(utxoPayouts)
      .where(
        and(
          eq(utxoPayouts.id, payout.id),
          eq(utxoPayouts.status, "signed"),
          eq(utxoPayouts.txid, payout.txid),
        ),
      )
      .for("update");
    if (!locked) return { kind: "refused", reason: "the payout changed meanwhile (replaced, or settled)" };
    const [change] = await tx.select().from(utxoCoins).where(eq(utxoCoins.changeOfPayoutId, payout.id));
    if (!change) return { kind: "refused", reason: "it has no change output to pay a higher fee from" };
    const coins = await queryRows<{
      txid: string;
      vout: number;
      base_amount: string;
      address: string;
      derivation_path: string;
    }>(
      tx,
      sql`select txid, vout, base_amount::text, address, derivation_path from utxo_coins where spent_by_payout_id = ${payout.id}`,
    );
    const byOutpoint = new Map(coins.map((c) => [`${c.txid}:${c.vout}`, c]));
    const old = Transaction.fromRaw(hex.decode(locked.rawTransaction));
    const spent = Array.from({ length: old.inputsLength }, (_, i) => {
      const prior = old.getInput(i);
      const coin = byOutpoint.get(`${hex.encode(prior.txid!)}:${prior.index}`);
      if (!coin) throw new Error(`payout ${payout.txid} spends a coin not booked to it`);
      return { prior, coin };
    });
    const totalIn = spent.reduce((sum, s) => sum + BigInt(s.coin.base_amount), 0n);
    const outputs = Array.from({ length: old.outputsLength }, (_, i) => old.getOutput(i));
    const paidOut = outputs.reduce((sum, o, i) => (i === change.vout ? sum : sum + o.amount!), 0n);
    const keys = privateKeysOf(
      input.seed,
      spent.map((s) => s.coin.derivation_path),
    );
    /** The same transaction paying `fee`, signed. */
    const build = (fee: bigint) => {
      const next = new Transaction();
      for (const { prior, coin } of spent)
        next.addInput({
          txid: prior.txid!,
          index: prior.index!,
          sequence: prior.sequence,
          witnessUtxo: {
            amount: BigInt(coin.base_amount),
            script: outputScriptOf(format, coin.address, network.net)!,
          },
        });
      for (const [i, output] of outputs.entries())
        next.addOutput({
          script: output.script!,
          amount: i === change.vout ? totalIn - paidOut - fee : output.amount!,
        });
      for (const [i, key] of keys.entries()) next.signIdx(key, i);
      next.finalize();
      return next;
    };
    const next = signAtFeeRate(build, chosen.rate, locked.vsize);
    const newChange = totalIn - paidOut - next.fee;
    if (newChange < MIN_CHANGE)
      return { kind: "refused", reason: `its change (${change.baseAmount}) cannot pay ${next.fee} in fees` };
    const [stored] = await tx
      .update(utxoPayouts)
      .set({
        txid: next.id,
        rawTransaction: next.hex,
        fee: next.fee,
        vsize: next.vsize,
        feeRate: chosen.rate,
        replaced: sql`${utxoPayouts.replaced} || ${JSON.stringify([versionOf(locked, { vout: change.vout, baseAmount: change.baseAmount })])}::jsonb`,
        sentAt: new Date(),
      })
      .where(eq(utxoPayouts.id, payout.id))
      .returning();
    await tx
      .update(utxoCoins)
      .set({ txid: next.id, baseAmount: newChange, updatedAt: new Date() })
      .where(eq(utxoCoins.id, change.id));
    return { kind: "replaced", payout: stored!, previousTxid: locked.txid };
  });
  if (result.kind === "replaced") await sendStoredUtxoPayout(network, result.payout);
  return result;
}
