import "server-only";

import { sql } from "drizzle-orm";
import type { Clock } from "@/lib/clock";
import { getCurrency } from "@/lib/currencies/registry";
import { type Db, queryRows } from "@/lib/db/client";
import { runEach } from "@/lib/jobs/run-each";
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
  input: { currency: string; spreadPpm: number; clock?: Clock },
): Promise<number> {
  const required = getCurrency(input.currency).confirmations;
  const rows = await queryRows<{
    id: string | number;
    confirmations: number;
    height: number | null;
    tip: number;
  }>(
    db,
    sql`select d.id, d.confirmations, c.block_height as height, coalesce(t.height, 0) as tip
        from deposits d
        join chain_transactions c on c.id = d.chain_transaction_id
        left join chain_tips t on t.currency = d.currency
        where d.currency = ${input.currency} and d.status = 'seen' and c.network is null
        order by d.id`,
  );
  let credited = 0;
  // One deposit that cannot be credited never holds up the others: each is tried, and the
  // failures are thrown together at the end so the job is retried.
  await runEach(
    rows,
    async (row) => {
      const confirmations = row.height === null ? 0 : Math.max(0, row.tip - row.height + 1);
      if (confirmations !== row.confirmations) {
        await db.execute(sql`update deposits set confirmations = ${confirmations} where id = ${row.id}`);
      }
      if (
        confirmations >= required &&
        (await creditDeposit(db, {
          depositId: Number(row.id),
          spreadPpm: input.spreadPpm,
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
