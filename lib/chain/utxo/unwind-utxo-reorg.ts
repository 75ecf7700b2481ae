import "server-only";

import { and, eq, gt, sql } from "drizzle-orm";
import { type RemovedPayment, settleRemovedPayment } from "@/lib/chain/evm/settle-removed-payment";
import type { Cursor } from "@/lib/chain/evm/store-range";
import { type Db, queryRows, type Tx } from "@/lib/db/client";
import { chainBlocks } from "@/lib/db/schema";
import { inTransaction } from "@/lib/db/transaction";
import { unwindHotWalletFunding } from "./hot-wallet/unwind-hot-wallet-funding";
import type { UtxoNetwork } from "./utxo-network";
import { findNodeTransaction, UtxoRpcError } from "./utxo-rpc";

/** The node's hash at `height`, or null when its chain is shorter. */
async function nodeHash(network: UtxoNetwork, height: bigint): Promise<string | null> {
  try {
    return await network.rpc.call<string>("getblockhash", [Number(height)]);
  } catch (error) {
    // "Block height out of range" (RPC_INVALID_PARAMETER, -8): the node's chain ends below it.
    if (error instanceof UtxoRpcError && error.code === -8) return null;
    throw error;
  }
}

/**
 * Whether the transaction is still on the node: in its mempool, or mined in a block of its active
 * chain (the new chain of a reorganisation). A mined one is found only with the node's -txindex;
 * without it, it counts as gone (unwound, and recorded again when its new block is read).
 */
async function isStillOnNode(network: UtxoNetwork, txid: string): Promise<boolean> {
  const transaction = await findNodeTransaction<{ confirmations?: number }>(network.rpc, txid);
  return transaction !== null && (transaction.confirmations === undefined || transaction.confirmations > 0);
}

/** Whether the cursor's block is still on the node's chain. */
export async function isCursorOnChain(network: UtxoNetwork, cursor: Cursor): Promise<boolean> {
  return (await nodeHash(network, cursor.blockNumber)) === cursor.blockHash;
}

/**
 * The last processed block still on the node's chain, walking back through the kept hashes; a fork
 * deeper than them is refused loudly (an operator must look), never guessed.
 */
async function findForkPoint(db: Db, network: UtxoNetwork, cursor: Cursor): Promise<Cursor> {
  // Raw: bigint heights read as text, ordered by the column itself.
  const kept = await queryRows<{ number: string; block_hash: string }>(
    db,
    sql`select block_number::text as number, block_hash from chain_blocks
        where network = ${network.network} and block_number <= ${cursor.blockNumber.toString()}
        order by block_number desc`,
  );
  for (const block of kept) {
    const height = BigInt(block.number);
    if ((await nodeHash(network, height)) === block.block_hash)
      return { blockNumber: height, blockHash: block.block_hash };
  }
  throw new Error(
    `${network.network}: reorganisation deeper than the ${kept.length} kept blocks below block ${cursor.blockNumber}; the watcher stops until an operator looks`,
  );
}

/**
 * Takes one payment off the chain for good (its block is gone and it is not in the mempool, or a
 * double spend replaced it): marked removed, its coin removed, and its deposit settled as on any
 * real chain (lib/chain/evm/settle-removed-payment.ts): unwound if only seen, an incident if its
 * coins were booked, never a silent balance change. A funding of the hot wallet is reversed if it
 * was credited (unwind-hot-wallet-funding.ts).
 */
export async function removeUtxoPayment(
  tx: Tx,
  network: string,
  id: number,
): Promise<"unwound" | "incident" | "none"> {
  const [payment] = await queryRows<RemovedPayment>(
    tx,
    sql`with removed as (
          update chain_transactions set removed_at = now() where id = ${id} and removed_at is null
          returning id, txid, log_index, block_height, block_hash)
        select r.*, d.id as deposit_id, d.status as deposit_status
        from removed r left join deposits d on d.chain_transaction_id = r.id and d.status <> 'unwound'`,
  );
  if (!payment) return "none";
  if (await unwindHotWalletFunding(tx, { chainTransactionId: id, to: "removed" })) return "unwound";
  await tx.execute(
    sql`update utxo_coins set status = 'removed', updated_at = now() where chain_transaction_id = ${id} and status <> 'spent'`,
  );
  return settleRemovedPayment(tx, { network, payment });
}

export type UtxoUnwound = { forkPoint: Cursor; unconfirmed: number; unwound: number; incidents: number };

/**
 * A reorganisation replaced processed blocks: the cursor goes back to the fork point, a payment the
 * node still has returns to unconfirmed (unless booked), every other one is removed (unwound, or an
 * incident when credited), and the next pass reads the new blocks. Returns null when another worker
 * handled it first. docs/decisions/chain-watcher-passes.md.
 */
export async function unwindUtxoReorg(
  db: Db,
  network: UtxoNetwork,
  cursor: Cursor,
): Promise<UtxoUnwound | null> {
  const fork = await findForkPoint(db, network, cursor);
  // Read before the transaction: no network call inside one.
  const affected = await queryRows<{ id: string | number; txid: string; deposit_status: string | null }>(
    db,
    sql`select c.id, c.txid, d.status as deposit_status from chain_transactions c
        left join deposits d on d.chain_transaction_id = c.id and d.status <> 'unwound'
        where c.network = ${network.network} and c.block_height > ${Number(fork.blockNumber)} and c.removed_at is null
        order by c.id`,
  );
  const stillOnNode = new Set<number>();
  for (const payment of affected)
    if (
      payment.deposit_status !== "credited" &&
      payment.deposit_status !== "rejected" &&
      (await isStillOnNode(network, payment.txid))
    )
      stillOnNode.add(Number(payment.id));
  return inTransaction(db, async (tx) => {
    // Raw: the conditional cursor move with bigint heights as text, like store-utxo-block.ts.
    const moved = await queryRows<{ network: string }>(
      tx,
      sql`update chain_cursors set block_number = ${fork.blockNumber.toString()}, block_hash = ${fork.blockHash}, updated_at = now()
          where network = ${network.network} and block_number = ${cursor.blockNumber.toString()}
            and block_hash = ${cursor.blockHash}
          returning network`,
    );
    if (moved.length === 0) return null;
    await tx
      .delete(chainBlocks)
      .where(and(eq(chainBlocks.network, network.network), gt(chainBlocks.blockNumber, fork.blockNumber)));
    const result: UtxoUnwound = { forkPoint: fork, unconfirmed: 0, unwound: 0, incidents: 0 };
    // Raw: every payment above the fork point, read again under this transaction.
    const removed = await queryRows<{ id: string | number }>(
      tx,
      sql`select id from chain_transactions
          where network = ${network.network} and block_height > ${Number(fork.blockNumber)} and removed_at is null
          order by id for update`,
    );
    for (const { id } of removed) {
      if (stillOnNode.has(Number(id))) {
        // Unconfirmed for now; the next blocks read give it its new block if the new chain has it.
        await tx.execute(
          sql`update chain_transactions set block_height = null, block_hash = null where id = ${id}`,
        );
        await tx.execute(
          sql`update deposits set confirmations = 0 where chain_transaction_id = ${id} and status = 'seen'`,
        );
        // A credited funding is taken back until its transaction is mined deep enough again.
        await unwindHotWalletFunding(tx, { chainTransactionId: Number(id), to: "pending" });
        result.unconfirmed++;
        continue;
      }
      const outcome = await removeUtxoPayment(tx, network.network, Number(id));
      if (outcome === "unwound") result.unwound++;
      if (outcome === "incident") result.incidents++;
    }
    return result;
  });
}
