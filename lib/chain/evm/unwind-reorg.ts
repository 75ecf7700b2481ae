import "server-only";

import { and, eq, gt, sql } from "drizzle-orm";
import { type Db, queryRows } from "@/lib/db/client";
import { chainBlocks } from "@/lib/db/schema";
import { inTransaction } from "@/lib/db/transaction";
import type { EvmNetwork } from "./evm-network";
import { type RemovedPayment, settleRemovedPayment } from "./settle-removed-payment";
import type { Cursor } from "./store-range";

/** The node's block `number` (hash and time), or null when the node's chain is shorter. */
async function nodeBlock(
  network: EvmNetwork,
  number: bigint,
): Promise<{ hash: string; timestamp: bigint } | null> {
  try {
    return await network.client.getBlock({ blockNumber: number });
  } catch (error) {
    if ((error as Error).name === "BlockNotFoundError") return null;
    throw error;
  }
}

/**
 * The last block the watcher processed that is still on the node's chain: walks back through the
 * kept hashes until one matches. A fork deeper than the kept hashes is refused loudly (an operator
 * must look): guessing would risk crediting from a chain Kassa never saw.
 */
async function findForkPoint(db: Db, network: EvmNetwork, cursor: Cursor): Promise<Cursor & { time: Date }> {
  // Ordered by the bigint column: ordering by its text form would put block 9 above block 30.
  // Raw: bigint block numbers read as text, so they stay exact.
  const kept = await queryRows<{ number: string; block_hash: string }>(
    db,
    sql`select block_number::text as number, block_hash from chain_blocks
        where network = ${network.network} and block_number <= ${cursor.blockNumber.toString()}
        order by block_number desc`,
  );
  for (const block of kept) {
    const number = BigInt(block.number);
    const onNode = await nodeBlock(network, number);
    if (onNode?.hash === block.block_hash)
      return {
        blockNumber: number,
        blockHash: block.block_hash,
        time: new Date(Number(onNode.timestamp) * 1000),
      };
  }
  throw new Error(
    `${network.network}: reorganisation deeper than the ${kept.length} kept blocks below block ${cursor.blockNumber}; the watcher stops until an operator looks`,
  );
}

export type Unwound = { forkPoint: Cursor & { time: Date }; unwound: number; incidents: number };

/**
 * Handles a reorganisation: moves the cursor (and `seen_until`, which invoice expiry waits on) back to
 * the fork point and marks payments in removed blocks removed. A seen one is unwound (unwind-deposit.ts);
 * a credited one changes no balance but becomes an incident and a loud log line. The next pass rereads
 * the blocks, so payments mined again are found. Returns null when another worker handled it first.
 */
export async function unwindReorg(db: Db, network: EvmNetwork, cursor: Cursor): Promise<Unwound | null> {
  const fork = await findForkPoint(db, network, cursor);
  return inTransaction(db, async (tx) => {
    // Raw: the conditional cursor move with bigint numbers as text, like store-range.ts.
    const moved = await queryRows<{ network: string }>(
      tx,
      sql`update chain_cursors set block_number = ${fork.blockNumber.toString()}, block_hash = ${fork.blockHash}, updated_at = now(),
            seen_until = ${fork.time.toISOString()}::timestamptz
          where network = ${network.network} and block_number = ${cursor.blockNumber.toString()}
            and block_hash = ${cursor.blockHash}
          returning network`,
    );
    if (moved.length === 0) return null;
    await tx
      .delete(chainBlocks)
      .where(and(eq(chainBlocks.network, network.network), gt(chainBlocks.blockNumber, fork.blockNumber)));
    // Raw: one data-modifying WITH marks the payments removed and returns them with their deposits.
    const removed = await queryRows<RemovedPayment>(
      tx,
      sql`with removed as (
            update chain_transactions set removed_at = now()
            where network = ${network.network} and block_height > ${Number(fork.blockNumber)} and removed_at is null
            returning id, txid, log_index, block_height, block_hash)
          select r.*, d.id as deposit_id, d.status as deposit_status
          from removed r left join deposits d on d.chain_transaction_id = r.id and d.status <> 'unwound'
          order by r.id`,
    );
    let unwound = 0;
    let incidents = 0;
    for (const payment of removed) {
      const outcome = await settleRemovedPayment(tx, { network: network.network, payment });
      if (outcome === "unwound") unwound++;
      if (outcome === "incident") incidents++;
    }
    return { forkPoint: fork, unwound, incidents };
  });
}
