import "server-only";

import { type Hash, parseAbiItem } from "viem";
import type { EvmNetwork } from "./evm-network";

const TRANSFER = parseAbiItem("event Transfer(address indexed from, address indexed to, uint256 value)");

/** How many addresses one eth_getLogs `to` filter carries; nodes refuse very long topic lists. */
const ADDRESSES_PER_LOG_QUERY = 500;

/** A block read, with its timestamp (seconds): a payment in it was made at that time, whenever Kassa reads it. */
export type FetchedBlock = { number: bigint; hash: Hash; parentHash: Hash; timestamp: bigint };

/** One transfer to a watched address: a native one (logIndex -1) or a token Transfer log. */
export type FetchedPayment = {
  currency: string;
  txid: Hash;
  logIndex: number;
  /** As the watched set knows it (lower case). */
  address: string;
  /** The sending account (lower case): the transaction's `from`, or the Transfer log's `from`; screened (lib/compliance). */
  sender: string;
  baseUnits: bigint;
  decimals: number;
  blockNumber: bigint;
  blockHash: Hash;
};

/** The node's chain moved while a range was read (a reorganisation in progress): read it again. */
export class RangeChangedError extends Error {}

/**
 * Reads blocks `from`..`to` (inclusive) and the payments in them to `watched` addresses: native
 * transfers from the blocks' transactions (a successful transaction with value to a watched
 * address), token transfers from `eth_getLogs` on the token contracts filtered by `to`. Throws
 * RangeChangedError when the blocks do not chain together or a log names a block hash other than
 * the one read: a half-seen reorganisation must never be recorded.
 */
export async function fetchRange(
  network: EvmNetwork,
  input: { from: bigint; to: bigint; watched: ReadonlyMap<string, string> },
): Promise<{ blocks: FetchedBlock[]; payments: FetchedPayment[] }> {
  const { client } = network;
  const blocks: FetchedBlock[] = [];
  const payments: FetchedPayment[] = [];
  const candidates: FetchedPayment[] = [];
  for (let number = input.from; number <= input.to; number++) {
    const block = await client.getBlock({ blockNumber: number, includeTransactions: true });
    const previous = blocks[blocks.length - 1];
    if (previous && block.parentHash !== previous.hash)
      throw new RangeChangedError(`block ${number} does not follow block ${previous.number}`);
    blocks.push({ number, hash: block.hash!, parentHash: block.parentHash, timestamp: block.timestamp });
    for (const transaction of block.transactions) {
      const to = transaction.to?.toLowerCase();
      if (!to || transaction.value === 0n || !input.watched.has(to)) continue;
      candidates.push({
        currency: "ETH",
        txid: transaction.hash,
        logIndex: -1,
        address: to,
        sender: transaction.from.toLowerCase(),
        baseUnits: transaction.value,
        decimals: 18,
        blockNumber: number,
        blockHash: block.hash!,
      });
    }
  }
  // A reverted transaction moves no ether: only a successful receipt counts.
  for (const candidate of candidates) {
    const receipt = await client.getTransactionReceipt({ hash: candidate.txid });
    if (receipt.status === "success" && receipt.blockHash === candidate.blockHash) payments.push(candidate);
  }

  const hashes = new Map(blocks.map((b) => [b.number, b.hash]));
  const decimalsOf = new Map(network.tokens.map((t) => [t.address, t]));
  const watched = [...input.watched.keys()] as `0x${string}`[];
  if (network.tokens.length && watched.length) {
    for (let start = 0; start < watched.length; start += ADDRESSES_PER_LOG_QUERY) {
      const logs = await client.getLogs({
        address: network.tokens.map((t) => t.address),
        event: TRANSFER,
        args: { to: watched.slice(start, start + ADDRESSES_PER_LOG_QUERY) },
        fromBlock: input.from,
        toBlock: input.to,
        strict: true,
      });
      for (const log of logs) {
        if (log.removed || log.blockNumber === null) continue;
        if (hashes.get(log.blockNumber) !== log.blockHash)
          throw new RangeChangedError(`a log of block ${log.blockNumber} names another block hash`);
        const token = decimalsOf.get(log.address.toLowerCase() as `0x${string}`);
        const to = log.args.to.toLowerCase();
        if (!token || !input.watched.has(to) || log.args.value === 0n) continue;
        payments.push({
          currency: token.currency,
          txid: log.transactionHash!,
          logIndex: log.logIndex!,
          address: to,
          sender: log.args.from.toLowerCase(),
          baseUnits: log.args.value,
          decimals: token.decimals,
          blockNumber: log.blockNumber,
          blockHash: log.blockHash!,
        });
      }
    }
  }
  return { blocks, payments };
}
