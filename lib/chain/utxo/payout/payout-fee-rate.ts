import "server-only";

import type { UtxoCoin } from "@/lib/config";
import type { UtxoNetwork } from "../utxo-network";
import { parseCoins } from "../utxo-rpc";

/** When the node has no estimate (a fresh chain, a quiet mempool) and no fallback is configured. */
export const DEFAULT_FALLBACK_FEE_RATE: Record<UtxoCoin, number> = { BTC: 10, LTC: 20 };
/** The most a payout pays per virtual byte unless configured otherwise: above it, payouts wait. */
export const DEFAULT_MAX_FEE_RATE: Record<UtxoCoin, number> = { BTC: 500, LTC: 500 };

/** How long a payout may stay unmined before it is replaced by fee, unless configured otherwise. */
export const DEFAULT_REPLACE_AFTER_SECONDS: Record<UtxoCoin, number> = { BTC: 3_600, LTC: 900 };

export type FeeRatePolicy = { fallback: number; max: number };

export type PayoutFeeRate =
  | { kind: "ready"; perVbyte: bigint; source: "estimate" | "fallback" }
  | { kind: "too_high"; reason: string };

/** Coins per 1,000 virtual bytes, as the node writes them, in base units per virtual byte, rounded up. */
const perVbyte = (coinsPerKvb: string) => (parseCoins(coinsPerKvb) + 999n) / 1000n;

/**
 * The fee rate a payout pays now: the node's `estimatesmartfee` for the next 6 blocks, or the
 * fallback when it has none, never below what the node relays (`getmempoolinfo`'s mempoolminfee).
 * Above the ceiling the payout waits instead of overpaying: the job is retried later.
 */
export async function payoutFeeRate(network: UtxoNetwork, policy: FeeRatePolicy): Promise<PayoutFeeRate> {
  const [estimate, mempool] = await Promise.all([
    network.rpc.call<{ feerate?: string; errors?: string[] }>("estimatesmartfee", [6]),
    network.rpc.call<{ mempoolminfee: string }>("getmempoolinfo"),
  ]);
  const floor = perVbyte(mempool.mempoolminfee);
  const estimated = estimate.feerate === undefined ? undefined : perVbyte(estimate.feerate);
  const rate = estimated ?? BigInt(policy.fallback);
  const chosen = rate > floor ? rate : floor;
  if (chosen > BigInt(policy.max))
    return {
      kind: "too_high",
      reason: `the ${network.currency} network asks ${chosen} per virtual byte, above the ceiling of ${policy.max}`,
    };
  return { kind: "ready", perVbyte: chosen, source: estimated === undefined ? "fallback" : "estimate" };
}
