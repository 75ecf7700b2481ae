import "server-only";

import { loadHdSeed } from "@/lib/chain/hd-seed";
import type { EvmConfig } from "@/lib/config";
import type { SecretBox } from "@/lib/crypto/secret-box";
import type { PeriodicTask } from "@/lib/jobs/runner";
import { evmNetworkOnce } from "../evm-network";
import { DEFAULT_MAX_FEE_GWEI } from "./evm-payout-adapter-for";
import { deriveHotWallet } from "./hot-wallet";
import type { PayoutReplacement } from "./replace-stuck-payout";
import { trackEvmPayouts } from "./track-evm-payouts";

/** Default wait before a payout that is not mined is replaced with higher fees (KASSA_EVM_REPLACE_AFTER_SECONDS). */
export const DEFAULT_REPLACE_AFTER_SECONDS = 300;

/**
 * The payout tracker as a periodic task of the job runner (like the watcher): the node is connected
 * on the first pass and again after a failed one. With the secret box it also replaces stuck
 * payouts, opening the seed (only this process, the job runner, does) when one is due.
 */
export function evmPayoutTask(input: { config: EvmConfig; box?: SecretBox; everyMs?: number }): PeriodicTask {
  const { box, config } = input;
  const network = evmNetworkOnce(config);
  const replacement: PayoutReplacement | undefined = box
    ? {
        wallet: async (db) => deriveHotWallet(await loadHdSeed(db, box)),
        afterSeconds: config.replaceAfterSeconds ?? DEFAULT_REPLACE_AFTER_SECONDS,
        ceilingGwei: config.maxFeeGwei ?? DEFAULT_MAX_FEE_GWEI,
      }
    : undefined;
  return {
    name: "evm payouts",
    everyMs: input.everyMs ?? 2_000,
    run: async (db) => {
      try {
        return await trackEvmPayouts(db, { network: await network.get(), replacement });
      } catch (error) {
        network.forget();
        throw error;
      }
    },
  };
}
