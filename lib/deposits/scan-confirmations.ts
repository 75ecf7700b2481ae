import "server-only";

import { and, eq, isNull, sql } from "drizzle-orm";
import type { Clock } from "@/lib/clock";
import { getCurrency } from "@/lib/currencies/registry";
import type { Db } from "@/lib/db/client";
import { chainTips, chainTransactions, deposits } from "@/lib/db/schema";
import { runEach } from "@/lib/jobs/run-each";
import type { Pricing } from "@/lib/rates/pricing";
import { creditDeposit } from "./credit-deposit";

/**
 * Brings the confirmation counts of a currency's unconfirmed deposits up to the chain's tip and
 * credits those that reached the registry's count. Runs as a job after every block; safe to run
 * any number of times (crediting is exactly-once on its own). Throws a BatchError after trying
 * every deposit when some failed. Payments on a real chain (`network` set) are confirmed by that
 * chain's watcher against the node's blocks (lib/chain/evm/confirm-evm-deposits.ts), never here.
 */
export async function scanConfirmations(
  db: Db,
  input: { currency: string; pricing: Pricing; clock?: Clock },
): Promise<number> {
  const required = getCurrency(input.currency).confirmations;
  const rows = await db
    .select({
      id: deposits.id,
      confirmations: deposits.confirmations,
      height: chainTransactions.blockHeight,
      tip: sql<number>`coalesce(${chainTips.height}, 0)`.mapWith(Number),
    })
    .from(deposits)
    .innerJoin(chainTransactions, eq(chainTransactions.id, deposits.chainTransactionId))
    .leftJoin(chainTips, eq(chainTips.currency, deposits.currency))
    .where(
      and(
        eq(deposits.currency, input.currency),
        eq(deposits.status, "seen"),
        isNull(chainTransactions.network),
      ),
    )
    .orderBy(deposits.id);
  let credited = 0;
  // One deposit that cannot be credited never holds up the others: each is tried, and the
  // failures are thrown together at the end so the job is retried.
  await runEach(
    rows,
    async (row) => {
      const confirmations = row.height === null ? 0 : Math.max(0, row.tip - row.height + 1);
      if (confirmations !== row.confirmations) {
        await db.update(deposits).set({ confirmations }).where(eq(deposits.id, row.id));
      }
      if (
        confirmations >= required &&
        (await creditDeposit(db, {
          depositId: row.id,
          pricing: input.pricing,
          clock: input.clock,
        }))
      ) {
        credited++;
      }
    },
    (row) => `deposit ${row.id}`,
  );
  return credited;
}
