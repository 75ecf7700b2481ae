import "server-only";

import { type PublicClient, parseTransaction, type TransactionSerializableEIP1559 } from "viem";
import { estimateFees } from "./payout/estimate-fees";

const GWEI = 1_000_000_000n;

/**
 * A fee raised by at least 12.5 %, rounded up: nodes (geth, anvil) refuse a same-nonce replacement
 * that offers less than that on both the max fee and the tip.
 */
const bumpFee = (fee: bigint) => fee + (fee + 7n) / 8n;

const max = (a: bigint, b: bigint) => (a > b ? a : b);

export type RaisedFees = {
  /** The stored attempt being replaced, parsed. */
  old: TransactionSerializableEIP1559 & { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint };
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
};

/**
 * The fees of a same-nonce replacement for a stored, unmined EVM transaction (a payout or a sweep):
 * at least 12.5 % above the last attempt's, or today's estimate if that is higher, and never above
 * the ceiling. Answers why not when the stored transaction cannot be replaced within the ceiling.
 */
export async function raiseReplacementFees(
  client: PublicClient,
  input: { rawTransaction: string; ceilingGwei: number },
): Promise<RaisedFees | { reason: string }> {
  const old = parseTransaction(input.rawTransaction as `0x${string}`);
  if (old.type !== "eip1559" || old.maxFeePerGas === undefined || old.maxPriorityFeePerGas === undefined)
    return { reason: "its stored transaction is not an EIP-1559 transaction" };
  const current = await estimateFees(client, { ceilingGwei: input.ceilingGwei });
  const maxFeePerGas = max(bumpFee(old.maxFeePerGas), current.maxFeePerGas);
  const maxPriorityFeePerGas = max(bumpFee(old.maxPriorityFeePerGas), current.maxPriorityFeePerGas);
  const ceiling = BigInt(input.ceilingGwei) * GWEI;
  if (maxFeePerGas > ceiling)
    return { reason: `a raised fee of ${maxFeePerGas} wei per gas would pass the ceiling of ${ceiling}` };
  return {
    old: { ...old, maxFeePerGas: old.maxFeePerGas, maxPriorityFeePerGas: old.maxPriorityFeePerGas },
    maxFeePerGas,
    maxPriorityFeePerGas,
  };
}
