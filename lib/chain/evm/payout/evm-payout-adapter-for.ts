import "server-only";

import type { ChainAdapter } from "@/lib/chain/adapter";
import { loadHdSeed } from "@/lib/chain/hd-seed";
import type { EvmConfig } from "@/lib/config";
import type { SecretBox } from "@/lib/crypto/secret-box";
import { evmNetworkOnce } from "../evm-network";
import { evmPayoutAdapter } from "./evm-payout-adapter";
import { deriveHotWallet } from "./hot-wallet";

/** Default ceiling on a payout's max fee per gas (KASSA_EVM_MAX_FEE_GWEI). */
export const DEFAULT_MAX_FEE_GWEI = 200;

/**
 * The payout adapter of a configured node: connected on first use (and again after a failed
 * connection), the hot wallet derived from the seed the first time a payout is signed.
 */
export function evmPayoutAdapterFor(input: { config: EvmConfig; box: SecretBox }): ChainAdapter {
  return evmPayoutAdapter({
    network: evmNetworkOnce(input.config).get,
    wallet: async (db) => deriveHotWallet(await loadHdSeed(db, input.box)),
    maxFeeGwei: input.config.maxFeeGwei ?? DEFAULT_MAX_FEE_GWEI,
  });
}
