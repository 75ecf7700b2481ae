import "server-only";

import { and, eq, lt, sql } from "drizzle-orm";
import type { Clock } from "@/lib/clock";
import { type Db, queryRows } from "@/lib/db/client";
import { amountSql, chainBlocks } from "@/lib/db/schema";
import { inTransaction } from "@/lib/db/transaction";
import { paymentRateSettings } from "@/lib/deposits/payment-rate-settings";
import { recordIncomingPayment } from "@/lib/deposits/record-incoming-payment";
import type { FetchedBlock, FetchedPayment } from "./fetch-range";
import { recordUnmatchedPayment } from "./record-unmatched-payment";
import { toLedgerAmount } from "./to-ledger-amount";

export type Cursor = { blockNumber: bigint; blockHash: string };

const blockTime = (block: FetchedBlock) => new Date(Number(block.timestamp) * 1000);

/** How many processed blocks' hashes are kept to find a fork point; deeper reorganisations are refused loudly. */
export const KEPT_BLOCKS = 1024n;

/**
 * Records a range the watcher read, in one transaction, only if the cursor is still at `cursor` (else
 * false: another worker did): moves the cursor and `seen_until`, keeps block hashes, inserts each payment
 * once by (currency, txid, log index) and reports it to the deposits, or as an incident if its currency is
 * not its address's (record-unmatched-payment.ts); a reorged-out payment mined again is reported again.
 */
export async function storeRange(
  db: Db,
  input: {
    network: string;
    cursor: Cursor | null;
    blocks: FetchedBlock[];
    payments: FetchedPayment[];
    /** Lower-case address → the address as handed out. */
    watched: ReadonlyMap<string, string>;
    /** Where the deposit pipeline reads "now" when it needs one (tests); the system clock otherwise. */
    clock?: Clock;
  },
): Promise<boolean> {
  const last = input.blocks[input.blocks.length - 1];
  if (!last) return true;
  const seenUntil = blockTime(last).toISOString();
  const timeOf = new Map(input.blocks.map((b) => [b.number, blockTime(b)]));
  return inTransaction(db, async (tx) => {
    // Raw: the conditional cursor move with bigint block numbers as text, its RETURNING telling who won.
    const moved = input.cursor
      ? await queryRows<{ network: string }>(
          tx,
          sql`update chain_cursors set block_number = ${last.number.toString()}, block_hash = ${last.hash}, updated_at = now(),
                seen_until = greatest(seen_until, ${seenUntil}::timestamptz)
              where network = ${input.network} and block_number = ${input.cursor.blockNumber.toString()}
                and block_hash = ${input.cursor.blockHash}
              returning network`,
        )
      : await queryRows<{ network: string }>(
          tx,
          sql`insert into chain_cursors (network, block_number, block_hash, seen_until)
              values (${input.network}, ${last.number.toString()}, ${last.hash}, ${seenUntil}::timestamptz)
              on conflict (network) do nothing returning network`,
        );
    if (moved.length === 0) return false;
    await tx
      .insert(chainBlocks)
      .values(
        input.blocks.map((block) => ({
          network: input.network,
          blockNumber: block.number,
          blockHash: block.hash,
          parentHash: block.parentHash,
        })),
      )
      .onConflictDoUpdate({
        target: [chainBlocks.network, chainBlocks.blockNumber],
        set: { blockHash: sql`excluded.block_hash`, parentHash: sql`excluded.parent_hash` },
      });
    await tx
      .delete(chainBlocks)
      .where(
        and(eq(chainBlocks.network, input.network), lt(chainBlocks.blockNumber, last.number - KEPT_BLOCKS)),
      );
    for (const payment of input.payments) {
      const address = input.watched.get(payment.address) ?? payment.address;
      const { amount, dust } = toLedgerAmount(payment.baseUnits, payment.decimals);
      // Raw: the upsert revives only a removed payment, and RETURNING tells a new or revived one from a known one.
      const [row] = await queryRows<{ id: string | number }>(
        tx,
        sql`insert into chain_transactions
              (currency, txid, log_index, network, address, sender_address, amount, base_amount, dust, direction, block_height, block_hash)
            values (${payment.currency}, ${payment.txid}, ${payment.logIndex}, ${input.network}, ${address}, ${payment.sender},
              ${amountSql(amount)}, ${payment.baseUnits.toString()}::numeric, ${dust.toString()}::numeric, 'in',
              ${Number(payment.blockNumber)}, ${payment.blockHash})
            on conflict (currency, txid, log_index) do update
              set block_height = excluded.block_height, block_hash = excluded.block_hash, removed_at = null
              where chain_transactions.removed_at is not null
            returning id`,
      );
      // Already recorded (and not removed since): reported once, never twice.
      if (!row) continue;
      const recorded =
        amount > 0n &&
        (await recordIncomingPayment(
          tx,
          {
            chainTransactionId: Number(row.id),
            currency: payment.currency,
            address,
            tag: "",
            amount,
            // Judged (lateness, rate lock) by when it was mined, not by when the watcher got to it.
            seenAt: timeOf.get(payment.blockNumber),
          },
          { settings: input.clock ? { ...paymentRateSettings(), clock: input.clock } : undefined },
        ));
      if (!recorded)
        await recordUnmatchedPayment(tx, {
          network: input.network,
          chainTransactionId: Number(row.id),
          currency: payment.currency,
          address,
          baseUnits: payment.baseUnits,
          txid: payment.txid,
          logIndex: payment.logIndex,
          blockNumber: payment.blockNumber,
          blockHash: payment.blockHash,
        });
    }
    return true;
  });
}
