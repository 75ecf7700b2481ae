import "server-only";

import { loadAccountKeys } from "@/lib/chain/load-account-keys";
import type { UtxoCoin, UtxoConfig } from "@/lib/config";
import type { SecretBox } from "@/lib/crypto/secret-box";
import { configureOffering, currentOffering } from "@/lib/currencies/offering";
import type { PeriodicTask } from "@/lib/jobs/runner";
import type { Pricing } from "@/lib/rates/pricing";
import { utxoHotWallet } from "./hot-wallet/utxo-hot-wallet";
import { utxoNetworkOnce } from "./utxo-network";
import { withUtxoNetwork } from "./utxo-offering";
import { type UtxoWatcherState, watchUtxoChain } from "./watch-utxo-chain";

/**
 * A UTXO chain's watcher (Bitcoin or Litecoin) as a job-runner task: a pass every `everyMs`, one at a
 * time per process (processes may overlap: the cursor's conditional update keeps them apart). Connects on
 * the first pass and after a failed one (a node down at start is picked up later), opening the offering's
 * coin. With `box` it also recognises hot-wallet fundings (from the public key, never the seed).
 */
export function utxoWatcherTask(input: {
  currency: UtxoCoin;
  config: UtxoConfig;
  mode: "sandbox" | "production";
  pricing: Pricing;
  box?: SecretBox;
  everyMs?: number;
}): PeriodicTask {
  const network = utxoNetworkOnce(input.currency, input.config, input.mode, (connected) => {
    const offering = currentOffering();
    if (offering)
      configureOffering(
        withUtxoNetwork(offering, { utxo: { [input.currency]: input.config } }, input.currency, connected),
      );
  });
  const state: UtxoWatcherState = { examined: new Set() };
  return {
    name: `${input.currency} watcher`,
    everyMs: input.everyMs ?? 2_000,
    run: async (db) => {
      try {
        const connected = await network.get();
        const pass = await watchUtxoChain(db, {
          network: connected,
          hotWallet: input.box ? utxoHotWallet(await loadAccountKeys(db, input.box), connected) : undefined,
          pricing: input.pricing,
          state,
        });
        if (pass.reorgs > 0)
          console.warn(
            `[chain] ${input.currency}: ${pass.reorgs} reorganisation(s) handled up to block ${pass.cursor}`,
          );
        return pass;
      } catch (error) {
        network.forget();
        throw error;
      }
    },
  };
}
