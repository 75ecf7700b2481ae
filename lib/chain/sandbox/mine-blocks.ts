import { sql } from "drizzle-orm";
import { realNetworkOf } from "@/lib/currencies/offering";
import { type Db, queryRows, type Tx } from "@/lib/db/client";
import { inTransaction } from "@/lib/db/transaction";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { assertSimulatedCurrency } from "./assert-simulated-currency";

export const CHAIN_SCAN_QUEUE = "chain.scan";

export type MinedBlocks = { currency: string; height: number; blocks: number; transactions: number };

async function mineIn(tx: Tx, currency: string, count: number): Promise<MinedBlocks> {
  const [tip] = await queryRows<{ height: number }>(
    tx,
    sql`insert into chain_tips (currency, height, mined_at) values (${currency}, ${count}, now())
        on conflict (currency) do update set height = chain_tips.height + ${count}, mined_at = now()
        returning height`,
  );
  const height = tip!.height;
  // The mempool goes into the first of the new blocks.
  const included = await queryRows<{ id: number }>(
    tx,
    sql`update chain_transactions set block_height = ${height - count + 1}
        where currency = ${currency} and block_height is null returning id`,
  );
  await enqueueJob(tx, {
    queue: CHAIN_SCAN_QUEUE,
    payload: { currency },
    dedupeKey: `chain-scan:${currency}`,
  });
  return { currency, height, blocks: count, transactions: included.length };
}

/** Sandbox: mines `count` blocks on a currency's network; confirmations are counted by a job. */
export async function mineSandboxBlocks(
  db: Db,
  input: { currency: string; count: number },
): Promise<MinedBlocks> {
  assertSimulatedCurrency(input.currency);
  return inTransaction(db, (tx) => mineIn(tx, input.currency, input.count));
}

/**
 * The automatic block timer (so a sandbox demo completes by itself): one block on every currency
 * that has unconfirmed payments, at most once per interval per currency. The interval check is a
 * conditional update, so several processes running the timer still mine one block per interval.
 */
export async function mineDueSandboxBlocks(db: Db, intervalSeconds: number): Promise<MinedBlocks[]> {
  const waiting = await queryRows<{ currency: string }>(
    db,
    sql`select distinct currency from deposits where status = 'seen'
        union select distinct currency from chain_transactions where block_height is null`,
  );
  const mined: MinedBlocks[] = [];
  // A currency paid on a real network gets its blocks from that network, never from this timer.
  for (const { currency } of waiting.filter((row) => realNetworkOf(row.currency) === null)) {
    const result = await inTransaction(db, async (tx) => {
      await tx.execute(
        sql`insert into chain_tips (currency, mined_at) values (${currency}, 'epoch') on conflict do nothing`,
      );
      const due = await queryRows<{ currency: string }>(
        tx,
        sql`update chain_tips set mined_at = now()
            where currency = ${currency} and mined_at <= now() - make_interval(secs => ${intervalSeconds})
            returning currency`,
      );
      return due.length ? mineIn(tx, currency, 1) : undefined;
    });
    if (result) mined.push(result);
  }
  return mined;
}
