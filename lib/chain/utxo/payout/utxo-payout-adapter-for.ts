import "server-only";

import type { ChainAdapter } from "@/lib/chain/adapter";
import { loadHdSeed } from "@/lib/chain/hd-seed";
import type { UtxoCoin, UtxoConfig } from "@/lib/config";
import type { SecretBox } from "@/lib/crypto/secret-box";
import { utxoNetworkOnce } from "../utxo-network";
import { DEFAULT_FALLBACK_FEE_RATE, DEFAULT_MAX_FEE_RATE, type FeeRatePolicy } from "./payout-fee-rate";
import { utxoPayoutAdapter } from "./utxo-payout-adapter";

/** A coin's fee-rate policy: its configuration, or the defaults. */
export function feeRatePolicy(currency: UtxoCoin, config: UtxoConfig): FeeRatePolicy {
  return {
    fallback: config.fallbackFeeRate ?? DEFAULT_FALLBACK_FEE_RATE[currency],
    max: config.maxFeeRate ?? DEFAULT_MAX_FEE_RATE[currency],
  };
}

/**
 * The payout adapter of a configured Bitcoin or Litecoin node: connected on first use (and again
 * after a failed connection), the seed opened the first time a payout is signed.
 */
export function utxoPayoutAdapterFor(input: {
  currency: UtxoCoin;
  config: UtxoConfig;
  mode: "sandbox" | "production";
  box: SecretBox;
  batchSeconds?: number;
}): ChainAdapter {
  const network = utxoNetworkOnce(input.currency, input.config, input.mode);
  return utxoPayoutAdapter({
    network: network.get,
    seed: (db) => loadHdSeed(db, input.box),
    feeRates: feeRatePolicy(input.currency, input.config),
    batchSeconds: input.batchSeconds,
  });
}
