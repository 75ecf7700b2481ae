import "server-only";

import type { EvmConfig } from "@/lib/config";
import { configureOffering, currentOffering, replaceNetwork } from "@/lib/currencies/offering";
import type { PeriodicTask } from "@/lib/jobs/runner";
import type { Pricing } from "@/lib/rates/pricing";
import { EVM_NETWORK, evmNetworkOnce } from "./evm-network";
import { offeringOf } from "./evm-offering";
import { type WatcherState, watchEvmChain } from "./watch-evm-chain";

/**
 * The EVM watcher as a periodic task of the job runner: a pass every `everyMs` (the runner never
 * runs two passes of one task at once in a process; several processes may run it together, the
 * cursor's conditional update keeps them apart). The node is connected on the first pass, and again
 * after a pass failed, so a node that was down at start is picked up when it comes back; each
 * connection recomputes the process's offering (chain id, token decimals) from the node.
 */
export function evmWatcherTask(input: {
  config: EvmConfig;
  pricing: Pricing;
  everyMs?: number;
}): PeriodicTask {
  // Each connection knows the chain id and token decimals: the EVM currencies open (if they were
  // closed because the node was down at start) and payment requests name this chain.
  const network = evmNetworkOnce(input.config, (connected) => {
    const offering = currentOffering();
    // Only Ethereum's part: the UTXO chains' watchers keep theirs.
    if (offering)
      configureOffering(
        replaceNetwork(
          offering,
          EVM_NETWORK,
          offeringOf({ mode: offering.mode, evm: input.config }, connected),
        ),
      );
  });
  const state: WatcherState = { range: 1n };
  return {
    name: "evm watcher",
    everyMs: input.everyMs ?? 2_000,
    run: async (db) => {
      try {
        const pass = await watchEvmChain(db, {
          network: await network.get(),
          pricing: input.pricing,
          state,
        });
        if (pass.reorgs > 0)
          console.warn(
            `[chain] ethereum: ${pass.reorgs} reorganisation(s) handled up to block ${pass.cursor}`,
          );
        return pass;
      } catch (error) {
        network.forget();
        throw error;
      }
    },
  };
}
