import "server-only";

import { type Address, encodeFunctionData, parseAbi } from "viem";
import { SCALE } from "@/lib/money";
import type { EvmNetwork } from "../evm-network";

export const TRANSFER_ABI = parseAbi(["function transfer(address to, uint256 value) returns (bool)"]);
export const BALANCE_ABI = parseAbi(["function balanceOf(address owner) view returns (uint256)"]);

/** What a payout asks of the chain: an ETH transfer, or a token contract's `transfer`. */
export type PayoutCall = {
  currency: string;
  /** The recipient as the merchant gave it, lower-cased. */
  recipient: Address;
  /** The exact amount in base units (wei, token units). */
  baseAmount: bigint;
  /** The transaction's own fields. */
  to: Address;
  value: bigint;
  data: `0x${string}` | undefined;
};

/**
 * The transaction for a payout of `amount` ledger units (10^-8), or why it cannot be made: a token
 * this node does not carry, or an amount finer than the token's decimals (USDT has 6: 0.12345678
 * cannot be sent exactly, and Kassa never sends other than what was debited).
 */
export function payoutCall(
  network: EvmNetwork,
  input: { currency: string; address: string; amount: bigint },
): PayoutCall | { refusal: string } {
  const recipient = input.address.toLowerCase() as Address;
  if (input.currency === "ETH") {
    const baseAmount = input.amount * 10n ** BigInt(18 - SCALE);
    return { currency: "ETH", recipient, baseAmount, to: recipient, value: baseAmount, data: undefined };
  }
  const token = network.tokens.find((t) => t.currency === input.currency);
  if (!token) return { refusal: `${input.currency} has no contract on this node` };
  let baseAmount: bigint;
  if (token.decimals >= SCALE) baseAmount = input.amount * 10n ** BigInt(token.decimals - SCALE);
  else {
    const step = 10n ** BigInt(SCALE - token.decimals);
    if (input.amount % step !== 0n)
      return {
        refusal: `${input.currency} has ${token.decimals} decimals; the amount cannot be sent exactly`,
      };
    baseAmount = input.amount / step;
  }
  const data = encodeFunctionData({
    abi: TRANSFER_ABI,
    functionName: "transfer",
    args: [recipient, baseAmount],
  });
  return { currency: input.currency, recipient, baseAmount, to: token.address, value: 0n, data };
}
