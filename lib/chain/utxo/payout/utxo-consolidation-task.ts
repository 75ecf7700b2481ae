import "server-only";

import { loadHdSeed } from "@/lib/chain/hd-seed";
import type { UtxoCoin, UtxoConfig } from "@/lib/config";
import type { SecretBox } from "@/lib/crypto/secret-box";
import type { PeriodicTask } from "@/lib/jobs/runner";
import { utxoNetworkOnce } from "../utxo-network";
import {
  type ConsolidationPolicy,
  consolidateUtxoCoins,
  DEFAULT_CONSOLIDATION,
} from "./consolidate-utxo-coins";
import { feeRatePolicy } from "./utxo-payout-adapter-for";

/** A coin's consolidation policy: its configuration, or the defaults. */
export function consolidationPolicy(currency: UtxoCoin, config: UtxoConfig): ConsolidationPolicy {
  const defaults = DEFAULT_CONSOLIDATION[currency];
  return {
    belowFeeRate: config.consolidateFeeRate ?? defaults.belowFeeRate,
    minCoins: config.consolidateMinCoins ?? defaults.minCoins,
    maxInputs: defaults.maxInputs,
  };
}

/**
 * Consolidation as a periodic task of the job runner (which alone opens the seed): every ten
 * minutes it looks whether fees are low enough and small coins many enough, and merges them if so.
 */
export function utxoConsolidationTask(input: {
  currency: UtxoCoin;
  config: UtxoConfig;
  mode: "sandbox" | "production";
  box: SecretBox;
  everyMs?: number;
}): PeriodicTask {
  const { currency, config, box } = input;
  const network = utxoNetworkOnce(currency, config, input.mode);
  return {
    name: `${currency} consolidation`,
    everyMs: input.everyMs ?? 10 * 60_000,
    run: async (db) => {
      try {
        const outcome = await consolidateUtxoCoins(db, {
          network: await network.get(),
          seed: await loadHdSeed(db, box),
          feeRates: feeRatePolicy(currency, config),
          policy: consolidationPolicy(currency, config),
        });
        if (outcome.kind === "consolidated")
          console.log(
            `[chain] ${currency}: ${outcome.coins} coins merged in ${outcome.payout.txid} (fee ${outcome.payout.fee}, ${outcome.payout.vsize} vB)`,
          );
        return outcome;
      } catch (error) {
        network.forget();
        throw error;
      }
    },
  };
}
