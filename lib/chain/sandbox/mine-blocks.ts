import "server-only";

import { and, eq, isNull, lte, sql } from "drizzle-orm";
import { realNetworkOf } from "@/lib/currencies/offering";
import type { Db, Tx } from "@/lib/db/client";
import { chainTips, chainTransactions, deposits, transactions, withdrawals } from "@/lib/db/schema";
import { inTransaction } from "@/lib/db/transaction";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { CHAIN_SCAN_QUEUE } from "@/lib/jobs/queues";
import { assertSimulatedCurrency } from "./assert-simulated-currency";

export type MinedBlocks = { currency: string; height: number; blocks: number; transactions: number };

async function mineIn(tx: Tx, currency: string, count: number): Promise<MinedBlocks> {
  const [tip] = await tx
    .insert(chainTips)
    .values({ currency, height: count, minedAt: sql`now()` })
    .onConflictDoUpdate({
      target: chainTips.currency,
      set: { height: sql`${chainTips.height} + ${count}`, minedAt: sql`now()` },
    })
    .returning({ height: chainTips.height });
  const height = tip!.height;
  // The mempool goes into the first of the new blocks: the sandbox's own, never a real chain's
  // unconfirmed payments (a Bitcoin or Litecoin node's mempool), which only that node's blocks confirm.
  const included = await tx
    .update(chainTransactions)
    .set({ blockHeight: height - count + 1 })
    .where(
      and(
        eq(chainTransactions.currency, currency),
        isNull(chainTransactions.blockHeight),
        isNull(chainTransactions.network),
      ),
    )
    .returning({ id: chainTransactions.id });
  // One scan per new tip. A key per currency alone lost blocks: a claimed job stays `queued` while
  // it runs (lib/jobs/claim-jobs.ts), so blocks mined during a scan that had already read the chain
  // found their job "already queued" and waited for the next block that anyone mined.
  await enqueueJob(tx, {
    queue: CHAIN_SCAN_QUEUE,
    payload: { currency },
    dedupeKey: `chain-scan:${currency}:${height}`,
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
 * that has unconfirmed payments or payouts, at most once per interval per currency. The interval check is a
 * conditional update, so several processes running the timer still mine one block per interval.
 */
export async function mineDueSandboxBlocks(db: Db, intervalSeconds: number): Promise<MinedBlocks[]> {
  // Only the sandbox's own payments (no `network`): a real chain's wait for that chain's blocks.
  const waiting = await db
    .selectDistinct({ currency: deposits.currency })
    .from(deposits)
    .innerJoin(chainTransactions, eq(chainTransactions.id, deposits.chainTransactionId))
    .where(and(eq(deposits.status, "seen"), isNull(chainTransactions.network)))
    .union(
      db
        .selectDistinct({ currency: chainTransactions.currency })
        .from(chainTransactions)
        .where(and(isNull(chainTransactions.blockHeight), isNull(chainTransactions.network))),
    )
    // Payouts mined but short of their confirmations: without more blocks they would stay "being
    // sent" for ever, as nothing else on a quiet sandbox network asks for a block.
    .union(
      db
        .selectDistinct({ currency: chainTransactions.currency })
        .from(withdrawals)
        .innerJoin(transactions, eq(transactions.id, withdrawals.transactionId))
        .innerJoin(chainTransactions, eq(chainTransactions.id, withdrawals.chainTransactionId))
        .where(and(eq(transactions.status, "sending"), isNull(chainTransactions.network))),
    );
  const mined: MinedBlocks[] = [];
  // A currency paid on a real network gets its blocks from that network, never from this timer.
  for (const { currency } of waiting.filter((row) => realNetworkOf(row.currency) === null)) {
    const result = await inTransaction(db, async (tx) => {
      await tx.insert(chainTips).values({ currency, minedAt: sql`'epoch'` }).onConflictDoNothing();
      const due = await tx
        .update(chainTips)
        .set({ minedAt: sql`now()` })
        .where(
          and(
            eq(chainTips.currency, currency),
            lte(chainTips.minedAt, sql`now() - make_interval(secs => ${intervalSeconds})`),
          ),
        )
        .returning({ currency: chainTips.currency });
      return due.length ? mineIn(tx, currency, 1) : undefined;
    });
    if (result) mined.push(result);
  }
  return mined;
}
