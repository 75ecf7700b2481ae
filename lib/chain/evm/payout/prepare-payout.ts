import "server-only";

import { BaseError, ContractFunctionRevertedError, type PublicClient } from "viem";
import type { PrivateKeyAccount } from "viem/accounts";
import { formatAmount } from "@/lib/money";
import type { EvmNetwork } from "../evm-network";
import { toLedgerAmount } from "../to-ledger-amount";
import { estimateFees, type PayoutFees } from "./estimate-fees";
import { BALANCE_ABI, type PayoutCall } from "./payout-call";

/** A payout ready to sign, or why it must wait (the hot wallet is short), or why it never can. */
export type PreparedPayout =
  | { kind: "ready"; fees: PayoutFees; gasLimit: bigint }
  | { kind: "short"; reason: string }
  | { kind: "refused"; reason: string };

/**
 * Reads what a payout needs from the node: the fees, the gas (estimated, plus a fifth for headroom),
 * and whether the hot wallet holds the amount and the gas. A token transfer that the contract
 * refuses in the estimate (a blocked recipient) can never be mined: it is refused. The token
 * balance is checked before the estimate, since a short wallet's transfer also fails to estimate.
 */
export async function preparePayout(input: {
  network: EvmNetwork;
  wallet: PrivateKeyAccount;
  call: PayoutCall;
  ceilingGwei: number;
}): Promise<PreparedPayout> {
  const { client } = input.network;
  const { call, wallet } = input;
  const token = input.network.tokens.find((t) => t.currency === call.currency);
  if (token) {
    const held = await client.readContract({
      address: token.address,
      abi: BALANCE_ABI,
      functionName: "balanceOf",
      args: [wallet.address],
    });
    if (held < call.baseAmount)
      return { kind: "short", reason: shortBy(call.currency, call.baseAmount - held, token.decimals) };
  }
  const fees = await estimateFees(client, { ceilingGwei: input.ceilingGwei });
  let estimate: bigint;
  try {
    estimate = await client.estimateGas({
      account: wallet.address,
      to: call.to,
      value: call.value,
      data: call.data,
    });
  } catch (error) {
    const refusal = revertReason(error);
    if (refusal !== undefined && token) return { kind: "refused", reason: refusal };
    if (!token && (await isShortOfEth(client, wallet, call.value)))
      return { kind: "short", reason: "the hot wallet holds less ETH than the payout" };
    throw error;
  }
  const gasLimit = (estimate * 6n) / 5n;
  const needed = call.value + gasLimit * fees.maxFeePerGas;
  const eth = await client.getBalance({ address: wallet.address });
  if (eth < needed) return { kind: "short", reason: shortBy("ETH", needed - eth, 18) };
  return { kind: "ready", fees, gasLimit };
}

function shortBy(currency: string, missing: bigint, decimals: number): string {
  const { amount, dust } = toLedgerAmount(missing, decimals);
  return `the hot wallet is short of ${formatAmount(amount + (dust > 0n ? 1n : 0n))} ${currency}`;
}

async function isShortOfEth(
  client: PublicClient,
  wallet: PrivateKeyAccount,
  value: bigint,
): Promise<boolean> {
  return (await client.getBalance({ address: wallet.address })) < value;
}

/** The contract's refusal in an estimate ("recipient blocked"), or undefined when the call failed otherwise. */
function revertReason(error: unknown): string | undefined {
  if (!(error instanceof BaseError)) return undefined;
  const reverted = error.walk((e) => e instanceof ContractFunctionRevertedError);
  if (reverted instanceof ContractFunctionRevertedError)
    return `the token contract refused the transfer${reverted.reason ? `: ${reverted.reason}` : ""}`;
  const text = `${error.message} ${error.details ?? ""}`;
  const match = /execution reverted(?::\s*([^\n]*))?/i.exec(text);
  if (!match) return undefined;
  const why = match[1]?.replace(/^revert:?\s*/i, "").trim();
  return `the token contract refused the transfer${why ? `: ${why}` : ""}`;
}
