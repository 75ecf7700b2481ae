import "server-only";

import { loadHdSeed } from "@/lib/chain/hd-seed";
import { DEFAULT_SWEEP_MINIMUMS, type EvmConfig } from "@/lib/config";
import type { SecretBox } from "@/lib/crypto/secret-box";
import type { Db } from "@/lib/db/client";
import type { PeriodicTask } from "@/lib/jobs/runner";
import { evmNetworkOnce } from "../evm-network";
import { DEFAULT_MAX_FEE_GWEI } from "../payout/evm-payout-adapter-for";
import { DEFAULT_REPLACE_AFTER_SECONDS } from "../payout/evm-payout-task";
import { deriveHotWallet } from "../payout/hot-wallet";
import { sweepEvmDeposits } from "./sweep-evm-deposits";
import { trackEvmSweeps } from "./track-evm-sweeps";

/**
 * Sweeps as a periodic task of the job runner (the only process that opens the seed): settles the
 * sweeps on their way (replacing one stuck past KASSA_EVM_REPLACE_AFTER_SECONDS, as payouts are),
 * then starts the ones that are due. The node is connected on the first pass
 * and again after a failed one.
 */
export function evmSweepTask(input: { config: EvmConfig; box: SecretBox; everyMs?: number }): PeriodicTask {
  const { config, box } = input;
  const network = evmNetworkOnce(config);
  // Opened once per process (loadHdSeed keeps it): the deposit keys and the hot wallet both come from it.
  const seed = (db: Db) => loadHdSeed(db, box);
  return {
    name: "evm sweeps",
    everyMs: input.everyMs ?? 30_000,
    run: async (db) => {
      try {
        const connected = await network.get();
        const tracked = await trackEvmSweeps(db, {
          network: connected,
          replacement: {
            seed,
            afterSeconds: config.replaceAfterSeconds ?? DEFAULT_REPLACE_AFTER_SECONDS,
            ceilingGwei: config.maxFeeGwei ?? DEFAULT_MAX_FEE_GWEI,
          },
        });
        const started = await sweepEvmDeposits(db, {
          network: connected,
          sources: {
            seed,
            hotWallet: async (d) => deriveHotWallet(await seed(d)),
            minimums: config.sweepMinimums ?? DEFAULT_SWEEP_MINIMUMS,
            ceilingGwei: config.maxFeeGwei ?? DEFAULT_MAX_FEE_GWEI,
          },
        });
        return { ...tracked, ...started };
      } catch (error) {
        network.forget();
        throw error;
      }
    },
  };
}
