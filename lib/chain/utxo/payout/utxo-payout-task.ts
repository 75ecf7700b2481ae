import "server-only";

import { loadHdSeed } from "@/lib/chain/hd-seed";
import type { UtxoCoin, UtxoConfig } from "@/lib/config";
import type { SecretBox } from "@/lib/crypto/secret-box";
import type { PeriodicTask } from "@/lib/jobs/runner";
import { utxoNetworkOnce } from "../utxo-network";
import { DEFAULT_REPLACE_AFTER_SECONDS } from "./payout-fee-rate";
import { trackUtxoPayouts, type UtxoReplacementPolicy } from "./track-utxo-payouts";
import { feeRatePolicy } from "./utxo-payout-adapter-for";

/**
 * The UTXO payout tracker as a periodic task of the job runner (like the watcher): the node is
 * connected on the first pass and again after a failed one. With the secret box it also replaces
 * stuck payouts by fee.
 */
export function utxoPayoutTask(input: {
  currency: UtxoCoin;
  config: UtxoConfig;
  mode: "sandbox" | "production";
  /** With the secret box, stuck payouts are replaced by fee (only the job runner opens the seed). */
  box?: SecretBox;
  everyMs?: number;
}): PeriodicTask {
  const { box, config, currency } = input;
  const network = utxoNetworkOnce(currency, config, input.mode);
  const replacement: UtxoReplacementPolicy | undefined = box && {
    afterSeconds: config.replaceAfterSeconds ?? DEFAULT_REPLACE_AFTER_SECONDS[currency],
    feeRates: feeRatePolicy(currency, config),
    seed: (db) => loadHdSeed(db, box),
  };
  return {
    name: `${input.currency} payouts`,
    everyMs: input.everyMs ?? 2_000,
    run: async (db) => {
      try {
        return await trackUtxoPayouts(db, await network.get(), { replacement });
      } catch (error) {
        network.forget();
        throw error;
      }
    },
  };
}
