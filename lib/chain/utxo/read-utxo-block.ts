import "server-only";

import type { ReadBlock } from "./store-utxo-block";
import type { UtxoPayment } from "./store-utxo-payments";
import { type FoundOutput, matchOutputs, type NodeTransaction, outputAddress } from "./utxo-outputs";
import type { UtxoRpc } from "./utxo-rpc";

type NodeBlock = {
  hash: string;
  height: number;
  time: number;
  /** -1 when the block is not on the node's active chain. */
  confirmations: number;
  previousblockhash?: string;
  nextblockhash?: string;
  tx: NodeTransaction[];
};

/**
 * The sender's address for screening: the address of the output the first input spends (a UTXO
 * transaction has no single sender; its first input is the usual stand-in). Read only for outputs
 * that pay Kassa, with `getrawtransaction`, which needs the node's -txindex for a mined transaction;
 * unknown (null) when the node cannot say.
 */
async function withSenders(rpc: UtxoRpc, found: FoundOutput[]): Promise<UtxoPayment[]> {
  const senders = new Map<string, string | null>();
  const payments: UtxoPayment[] = [];
  for (const output of found) {
    const input = output.firstInput;
    let sender: string | null = null;
    if (input) {
      const key = `${input.txid}:${input.vout}`;
      if (!senders.has(key)) {
        const previous = await rpc
          .call<NodeTransaction>("getrawtransaction", [input.txid, true])
          .catch(() => null);
        const spent = previous?.vout.find((o) => o.n === input.vout);
        senders.set(key, spent ? outputAddress(spent) : null);
      }
      sender = senders.get(key) ?? null;
    }
    payments.push({ ...output, sender });
  }
  return payments;
}

/**
 * Reads block `height` (`getblock` with verbosity 2: every transaction with its outputs in one call)
 * and the outputs in it that pay a watched address. `hint` is the hash the previous block named as
 * its successor: used when it is still that height on the node's active chain, so a catch-up costs
 * one call per block; otherwise (the first block, a reorganisation) `getblockhash` asks first.
 */
export async function readUtxoBlock(
  rpc: UtxoRpc,
  height: number,
  watched: ReadonlyMap<string, string>,
  hint?: string,
): Promise<ReadBlock & { nextHash: string | undefined }> {
  let block = hint ? await rpc.call<NodeBlock>("getblock", [hint, 2]) : undefined;
  if (!block || block.height !== height || block.confirmations < 1)
    block = await rpc.call<NodeBlock>("getblock", [await rpc.call<string>("getblockhash", [height]), 2]);
  const found = block.tx.flatMap((transaction) => matchOutputs(transaction, watched));
  return {
    height: block.height,
    hash: block.hash,
    previousHash: block.previousblockhash ?? "",
    time: new Date(block.time * 1000),
    payments: await withSenders(rpc, found),
    nextHash: block.nextblockhash,
  };
}

/** A mempool transaction's outputs to watched addresses (null when it left the mempool meanwhile). */
export async function readMempoolTransaction(
  rpc: UtxoRpc,
  txid: string,
  watched: ReadonlyMap<string, string>,
): Promise<UtxoPayment[] | null> {
  const transaction = await rpc.call<NodeTransaction>("getrawtransaction", [txid, true]).catch(() => null);
  if (!transaction) return null;
  return withSenders(rpc, matchOutputs(transaction, watched));
}
