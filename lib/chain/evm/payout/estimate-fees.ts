import "server-only";

import type { PublicClient } from "viem";

export type PayoutFees = { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint };

const GWEI = 1_000_000_000n;
/** The tip offered when recent blocks paid none (an idle node): enough for a miner to take it. */
const MIN_PRIORITY_FEE = GWEI / 10n;

/**
 * EIP-1559 fees from eth_feeHistory: the median tip of the last blocks (at least 0.1 gwei), and a
 * max fee of twice the next block's base fee plus that tip, so the transaction still fits after
 * several blocks of rising base fees. Both are held under the configured ceiling: a payout never
 * offers more than the operator allowed (it waits for cheaper blocks instead).
 */
export async function estimateFees(
  client: PublicClient,
  input: { ceilingGwei: number },
): Promise<PayoutFees> {
  const history = await client.getFeeHistory({ blockCount: 5, rewardPercentiles: [50] });
  const nextBaseFee = history.baseFeePerGas.at(-1) ?? 0n;
  const tips = (history.reward ?? []).map((r) => r[0] ?? 0n).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const median = tips.length > 0 ? tips[Math.floor(tips.length / 2)]! : 0n;
  const ceiling = BigInt(input.ceilingGwei) * GWEI;
  const tip = median > MIN_PRIORITY_FEE ? median : MIN_PRIORITY_FEE;
  const maxFeePerGas = min(2n * nextBaseFee + tip, ceiling);
  return { maxFeePerGas, maxPriorityFeePerGas: min(tip, maxFeePerGas) };
}

const min = (a: bigint, b: bigint) => (a < b ? a : b);
