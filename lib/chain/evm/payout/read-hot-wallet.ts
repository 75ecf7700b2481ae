import "server-only";

import { formatAmount } from "@/lib/money";
import { EVM_CURRENCIES, type EvmNetwork } from "../evm-network";
import { toLedgerAmount } from "../to-ledger-amount";
import { BALANCE_ABI } from "./payout-call";

export type HotWalletView = {
  address: string;
  /** Per currency, read on chain, as 8-digit decimal strings (rounded down). */
  balances: Record<string, string>;
};

/**
 * The hot wallet as an operator funds it: its address and what it holds of ETH, USDTE and USDC,
 * read from the node. A token this node has no contract for shows "0.00000000".
 */
export async function readHotWallet(input: {
  network: EvmNetwork;
  address: `0x${string}`;
}): Promise<HotWalletView> {
  const { client, tokens } = input.network;
  const balances: Record<string, string> = {};
  for (const code of EVM_CURRENCIES) {
    const token = tokens.find((t) => t.currency === code);
    let base = 0n;
    let decimals = 18;
    if (code === "ETH") base = await client.getBalance({ address: input.address });
    else if (token) {
      decimals = token.decimals;
      base = await client.readContract({
        address: token.address,
        abi: BALANCE_ABI,
        functionName: "balanceOf",
        args: [input.address],
      });
    }
    balances[code] = formatAmount(toLedgerAmount(base, decimals).amount);
  }
  return { address: input.address, balances };
}
