import "server-only";

import { type PublicClient, parseTransaction } from "viem";
import { estimateFees } from "./payout/estimate-fees";

const GWEI = 1_000_000_000n;

/**
 * A fee raised by at least 12.5 %, rounded up: nodes (geth, anvil) refuse a same-nonce replacement
 * that offers less than that on both the max fee and the tip.
 */
const bumpFee = (fee: bigint) => fee + (fee + 7n) / 8n;

const max = (a: bigint, b: bigint) => (a > b ? a : b);

/** An unsigned same-nonce replacement, and the max fee of the attempt it replaces. */
export type PreparedReplacement = {
  transaction: {
    type: "eip1559";
    chainId: number;
    nonce: number;
    to: `0x${string}` | null | undefined;
    value: bigint;
    data: `0x${string}` | undefined;
    gas: bigint;
    maxFeePerGas: bigint;
    maxPriorityFeePerGas: bigint;
  };
  oldMaxFeePerGas: bigint;
};

/**
 * The replacement of a stored, unmined EVM transaction (a payout or a sweep): the same nonce,
 * recipient, amount, data and gas, with fees at least 12.5 % above the last attempt's, or today's
 * estimate if that is higher, and never above the ceiling. Answers why not when the stored
 * transaction cannot be replaced within the ceiling. The caller signs it (and a sweep lowers its
 * amount first).
 */
export async function prepareReplacement(
  client: PublicClient,
  input: {
    stored: { rawTransaction: string; nonce: bigint; gasLimit: bigint };
    chainId: number;
    ceilingGwei: number;
  },
): Promise<PreparedReplacement | { reason: string }> {
  const { stored } = input;
  const old = parseTransaction(stored.rawTransaction as `0x${string}`);
  if (old.type !== "eip1559" || old.maxFeePerGas === undefined || old.maxPriorityFeePerGas === undefined)
    return { reason: "its stored transaction is not an EIP-1559 transaction" };
  const current = await estimateFees(client, { ceilingGwei: input.ceilingGwei });
  const maxFeePerGas = max(bumpFee(old.maxFeePerGas), current.maxFeePerGas);
  const maxPriorityFeePerGas = max(bumpFee(old.maxPriorityFeePerGas), current.maxPriorityFeePerGas);
  const ceiling = BigInt(input.ceilingGwei) * GWEI;
  if (maxFeePerGas > ceiling)
    return { reason: `a raised fee of ${maxFeePerGas} wei per gas would pass the ceiling of ${ceiling}` };
  return {
    transaction: {
      type: "eip1559",
      chainId: input.chainId,
      nonce: Number(stored.nonce),
      to: old.to,
      value: old.value ?? 0n,
      data: old.data,
      gas: old.gas ?? stored.gasLimit,
      maxFeePerGas,
      maxPriorityFeePerGas,
    },
    oldMaxFeePerGas: old.maxFeePerGas,
  };
}
