import "server-only";

import { hex } from "@scure/base";
import { Transaction } from "@scure/btc-signer";
import { sql } from "drizzle-orm";
import { outputScriptOf } from "@/lib/chain/address-codec";
import { getCurrency } from "@/lib/currencies/registry";
import { type Db, queryRows } from "@/lib/db/client";
import { inTransaction } from "@/lib/db/transaction";
import type { UtxoNetwork } from "../utxo-network";
import { type FeeRatePolicy, payoutFeeRate } from "./payout-fee-rate";
import { sendStoredUtxoPayout } from "./send-stored-utxo-payout";
import { signAtFeeRate } from "./sign-at-fee-rate";
import { nextPayoutId, type StoredUtxoPayout, storeUtxoTransaction } from "./store-utxo-transaction";
import { changeAddressOf, privateKeysOf } from "./utxo-keys";

/** When to merge small coins: at or below `belowFeeRate` per virtual byte, with at least `minCoins` spendable. */
export type ConsolidationPolicy = { belowFeeRate: number; minCoins: number; maxInputs: number };

export const DEFAULT_CONSOLIDATION: Record<"BTC" | "LTC", ConsolidationPolicy> = {
  BTC: { belowFeeRate: 5, minCoins: 50, maxInputs: 200 },
  LTC: { belowFeeRate: 10, minCoins: 50, maxInputs: 200 },
};

export type Consolidation =
  | { kind: "consolidated"; payout: StoredUtxoPayout; coins: number }
  | { kind: "skipped"; reason: string };

type Coin = {
  id: number;
  txid: string;
  vout: number;
  base_amount: string;
  address: string;
  derivation_path: string;
};

/**
 * Merges the smallest spendable coins (up to `maxInputs`, locked as a payout's) into one change-chain coin
 * at its utxo_payouts row's index, while fees are low, so later payouts need fewer inputs (~68 vbytes
 * each). Stored before it is sent; the tracker settles it: the coin becomes spendable and the fee is
 * Kassa's own (`utxo_consolidation`).
 */
export async function consolidateUtxoCoins(
  db: Db,
  input: { network: UtxoNetwork; seed: Uint8Array; feeRates: FeeRatePolicy; policy: ConsolidationPolicy },
): Promise<Consolidation> {
  const { network, policy } = input;
  const rate = await payoutFeeRate(network, input.feeRates);
  if (rate.kind !== "ready") return { kind: "skipped", reason: rate.reason };
  if (rate.perVbyte > BigInt(policy.belowFeeRate))
    return {
      kind: "skipped",
      reason: `the fee rate (${rate.perVbyte}) is above ${policy.belowFeeRate} per virtual byte`,
    };
  const format = getCurrency(network.currency).addressFormat!;
  const result = await inTransaction(db, async (tx): Promise<Consolidation> => {
    const coins = await queryRows<Coin>(
      tx,
      sql`select id, txid, vout, base_amount::text, address, derivation_path from utxo_coins
          where network = ${network.network} and status = 'spendable'
          order by utxo_coins.base_amount, utxo_coins.id limit ${policy.maxInputs} for update skip locked`,
    );
    if (coins.length < policy.minCoins)
      return { kind: "skipped", reason: `${coins.length} spendable coins, fewer than ${policy.minCoins}` };
    const id = await nextPayoutId(tx);
    const target = changeAddressOf(network, input.seed, id);
    const total = coins.reduce((sum, coin) => sum + BigInt(coin.base_amount), 0n);
    const keys = privateKeysOf(
      input.seed,
      coins.map((coin) => coin.derivation_path),
    );
    const build = (fee: bigint) => {
      const merged = new Transaction();
      for (const coin of coins)
        merged.addInput({
          txid: hex.decode(coin.txid),
          index: coin.vout,
          sequence: 0xfffffffd,
          witnessUtxo: {
            amount: BigInt(coin.base_amount),
            script: outputScriptOf(format, coin.address, network.net)!,
          },
        });
      merged.addOutput({ script: outputScriptOf(format, target.address, network.net)!, amount: total - fee });
      for (const [i, key] of keys.entries()) merged.signIdx(key, i);
      merged.finalize();
      return merged;
    };
    // Sized first at an estimate: 68 vB per input, 31 for the output, 11 of overhead.
    const merged = signAtFeeRate(build, rate.perVbyte, 11 + 68 * coins.length + 31);
    if (total - merged.fee <= merged.fee)
      return { kind: "skipped", reason: "the coins are worth too little for the fee of merging them" };
    const stored = await storeUtxoTransaction(tx, {
      id,
      network,
      transaction: merged,
      feeRate: rate.perVbyte,
      spentCoinIds: coins.map((coin) => coin.id),
      change: { vout: 0, address: target.address, path: target.path },
    });
    return { kind: "consolidated", payout: stored, coins: coins.length };
  });
  if (result.kind === "consolidated") await sendStoredUtxoPayout(network, result.payout);
  return result;
}
