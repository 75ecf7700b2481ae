import "server-only";

import { decodeEventLog, parseAbi, type TransactionReceipt } from "viem";
import type { EvmNetwork } from "./evm-network";

const TRANSFER_EVENT = parseAbi(["event Transfer(address indexed from, address indexed to, uint256 value)"]);

export type TokenTransfer = { logIndex: number; from: string; to: string; baseUnits: bigint };

/**
 * The Transfer events of `currency`'s token contract in a mined transaction's receipt, addresses in
 * lower case: what the transaction moved of that token (another event of the token is not a
 * transfer, and a log of another contract is not this token's). None for a currency with no contract.
 */
export function tokenTransfers(
  network: EvmNetwork,
  receipt: Pick<TransactionReceipt, "logs">,
  currency: string,
): TokenTransfer[] {
  const token = network.tokens.find((t) => t.currency === currency)?.address;
  const transfers: TokenTransfer[] = [];
  for (const log of receipt.logs) {
    if (log.address.toLowerCase() !== token) continue;
    try {
      const event = decodeEventLog({ abi: TRANSFER_EVENT, data: log.data, topics: log.topics });
      transfers.push({
        logIndex: log.logIndex,
        from: event.args.from.toLowerCase(),
        to: event.args.to.toLowerCase(),
        baseUnits: event.args.value,
      });
    } catch {
      // Another event of the token: not a transfer.
    }
  }
  return transfers;
}
