import "server-only";

import type { UtxoCoin, UtxoConfig } from "@/lib/config";
import type { PeriodicTask } from "@/lib/jobs/runner";
import { utxoNetworkOnce } from "../utxo-network";
import { trackUtxoPayouts } from "./track-utxo-payouts";

/**
 * The UTXO payout tracker as a periodic task of the job runner (like the watcher): the node is
 * connected on the first pass and again after a failed one.
 */
export function utxoPayoutTask(input: {
  currency: UtxoCoin;
  config: UtxoConfig;
  mode: "sandbox" | "production";
  everyMs?: number;
}): PeriodicTask {
  const network = utxoNetworkOnce(input.currency, input.config, input.mode);
  return {
    name: `${input.currency} payouts`,
    everyMs: input.everyMs ?? 2_000,
    run: async (db) => {
      try {
        return await trackUtxoPayouts(db, await network.get());
      } catch (error) {
        network.forget();
        throw error;
      }
    },
  };
}
