import "server-only";

import type { EvmConfig } from "@/lib/config";
import type { PeriodicTask } from "@/lib/jobs/runner";
import { connectEvmNetwork, type EvmNetwork } from "../evm-network";
import { trackEvmPayouts } from "./track-evm-payouts";

/**
 * The payout tracker as a periodic task of the job runner (like the watcher): the node is connected
 * on the first pass and again after a failed one.
 */
export function evmPayoutTask(input: { config: EvmConfig; everyMs?: number }): PeriodicTask {
  let network: Promise<EvmNetwork> | undefined;
  return {
    name: "evm payouts",
    everyMs: input.everyMs ?? 2_000,
    run: async (db) => {
      network ??= connectEvmNetwork(input.config);
      try {
        return await trackEvmPayouts(db, { network: await network });
      } catch (error) {
        network = undefined;
        throw error;
      }
    },
  };
}
