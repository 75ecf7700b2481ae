import "server-only";

import { sql } from "drizzle-orm";
import { type Executor, queryRows } from "@/lib/db/client";
import { EVM_CURRENCIES, type EvmNetwork } from "../evm-network";
import { BALANCE_ABI } from "../payout/payout-call";

/** Per currency, in base units (wei, token units), at one block. */
export type ChainHoldings = {
  hotWallet: Record<string, bigint>;
  depositAddresses: Record<string, bigint>;
  /** How many deposit addresses were read. */
  addressCount: number;
};

/**
 * Every Kassa address on the network that can hold funds: the deposit addresses that ever received
 * a transfer the watcher saw, were swept, or were topped up with gas (an address nothing was ever
 * sent to holds nothing), in lower case.
 */
export async function readFundedDepositAddresses(db: Executor, network: string): Promise<string[]> {
  // Raw: a union of three tables' addresses.
  const rows = await queryRows<{ address: string }>(
    db,
    sql`select lower(address) as address from chain_transactions where network = ${network} and direction = 'in'
        union select from_address from evm_sweeps where network = ${network}
        union select lower(to_address) from evm_payouts
              where network = ${network} and reference like 'sweep-gas:%'`,
  );
  return rows.map((r) => r.address).sort();
}

async function balanceOf(
  network: EvmNetwork,
  input: { currency: string; owner: `0x${string}`; blockNumber: bigint },
): Promise<bigint> {
  if (input.currency === "ETH")
    return network.client.getBalance({ address: input.owner, blockNumber: input.blockNumber });
  const token = network.tokens.find((t) => t.currency === input.currency);
  if (!token) return 0n;
  return network.client.readContract({
    address: token.address,
    abi: BALANCE_ABI,
    functionName: "balanceOf",
    args: [input.owner],
    blockNumber: input.blockNumber,
  });
}

/**
 * What Kassa's addresses hold on chain at `blockNumber`, read from the node: the hot wallet and
 * every deposit address that may hold something (readFundedDepositAddresses) (swept or not: what a sweep left, such as the rest
 * of a gas top-up, is Kassa's too). All reads name the same block, so a transfer mined while they run
 * cannot be counted twice or not at all. Reads go 16 at a time.
 */
export async function readChainHoldings(input: {
  network: EvmNetwork;
  hotWallet: `0x${string}`;
  depositAddresses: string[];
  blockNumber: bigint;
}): Promise<ChainHoldings> {
  const { network, blockNumber } = input;
  const addresses = input.depositAddresses.filter((a) => a !== input.hotWallet.toLowerCase());
  const holdings: ChainHoldings = { hotWallet: {}, depositAddresses: {}, addressCount: addresses.length };
  for (const currency of EVM_CURRENCIES) {
    holdings.hotWallet[currency] = await balanceOf(network, {
      currency,
      owner: input.hotWallet,
      blockNumber,
    });
    let total = 0n;
    for (let i = 0; i < addresses.length; i += 16) {
      const batch = addresses.slice(i, i + 16) as `0x${string}`[];
      const balances = await Promise.all(
        batch.map((owner) => balanceOf(network, { currency, owner, blockNumber })),
      );
      for (const balance of balances) total += balance;
    }
    holdings.depositAddresses[currency] = total;
  }
  return holdings;
}
