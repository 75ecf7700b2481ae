import "server-only";

import { and, eq, lt, sql } from "drizzle-orm";
import { type Cursor, KEPT_BLOCKS } from "@/lib/chain/evm/store-range";
import type { Clock } from "@/lib/clock";
import { type Db, queryRows } from "@/lib/db/client";
import { chainBlocks } from "@/lib/db/schema";
import { inTransaction } from "@/lib/db/transaction";
import type { UtxoHotWallet } from "./hot-wallet/utxo-hot-wallet";
import { storeUtxoPayments, type UtxoBlock, type UtxoPayment } from "./store-utxo-payments";

/** A block the watcher read: its place in the chain and the outputs in it that pay Kassa. */
export type ReadBlock = UtxoBlock & { previousHash: string; payments: UtxoPayment[] };

/**
 * Records one block in one transaction: the cursor moves to it only if it is still at `cursor` (a
 * conditional update: when two workers read the same block, one records it and the other records
 * nothing), its hash is kept to find a fork point later, and its payments are stored
 * (store-utxo-payments.ts). A watcher killed at any moment resumes from its cursor with nothing
 * missed and nothing twice. Returns false when another worker got there first.
 */
export async function storeUtxoBlock(
  db: Db,
  input: {
    network: string;
    currency: string;
    cursor: Cursor | null;
    block: ReadBlock;
    hotWallet?: UtxoHotWallet;
    clock?: Clock;
  },
): Promise<boolean> {
  const { block } = input;
  const height = BigInt(block.height);
  const time = block.time.toISOString();
  return inTransaction(db, async (tx) => {
    // Raw: the conditional cursor move with the bigint height as text, its RETURNING telling who won.
    const moved = input.cursor
      ? await queryRows<{ network: string }>(
          tx,
          sql`update chain_cursors set block_number = ${height.toString()}, block_hash = ${block.hash}, updated_at = now(),
                seen_until = greatest(seen_until, least(${time}::timestamptz, now()))
              where network = ${input.network} and block_number = ${input.cursor.blockNumber.toString()}
                and block_hash = ${input.cursor.blockHash}
              returning network`,
        )
      : await queryRows<{ network: string }>(
          tx,
          sql`insert into chain_cursors (network, block_number, block_hash, seen_until)
              values (${input.network}, ${height.toString()}, ${block.hash}, least(${time}::timestamptz, now()))
              on conflict (network) do nothing returning network`,
        );
    if (moved.length === 0) return false;
    await tx
      .insert(chainBlocks)
      .values({
        network: input.network,
        blockNumber: height,
        blockHash: block.hash,
        parentHash: block.previousHash,
      })
      .onConflictDoUpdate({
        target: [chainBlocks.network, chainBlocks.blockNumber],
        set: { blockHash: sql`excluded.block_hash`, parentHash: sql`excluded.parent_hash` },
      });
    await tx
      .delete(chainBlocks)
      .where(and(eq(chainBlocks.network, input.network), lt(chainBlocks.blockNumber, height - KEPT_BLOCKS)));
    await storeUtxoPayments(tx, {
      network: input.network,
      currency: input.currency,
      payments: block.payments,
      block,
      hotWallet: input.hotWallet,
      clock: input.clock,
    });
    return true;
  });
}
