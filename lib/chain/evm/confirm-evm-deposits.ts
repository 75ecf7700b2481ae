import "server-only";

import { and, eq, sql } from "drizzle-orm";
import { type Db, queryRows } from "@/lib/db/client";
import { deposits } from "@/lib/db/schema";
import { creditDeposit } from "@/lib/deposits/credit-deposit";
import { runEach } from "@/lib/jobs/run-each";
import type { Pricing } from "@/lib/rates/pricing";

/**
 * Counts the confirmations of the network's seen deposits against the watcher's cursor (the last
 * block it checked is on the node's chain) and credits those that reached the configured count.
 * Crediting is exactly-once on its own (lib/deposits/credit-deposit.ts), so two workers may run this
 * together. Returns how many deposits this call credited.
 */
export async function confirmEvmDeposits(
  db: Db,
  // Any real network's name and confirmations: the UTXO watcher counts its deposits here too.
  input: { network: { network: string; confirmations: Record<string, number> }; pricing: Pricing },
): Promise<number> {
  // Raw: the cursor's block number is a bigint column read as text, so a tip past 2^53 stays exact.
  const rows = await queryRows<{
    id: string | number;
    currency: string;
    confirmations: number;
    height: number;
    tip: string;
  }>(
    db,
    sql`select d.id, d.currency, d.confirmations, c.block_height as height, k.block_number::text as tip
        from deposits d
        join chain_transactions c on c.id = d.chain_transaction_id
        join chain_cursors k on k.network = c.network
        where c.network = ${input.network.network} and d.status = 'seen' and c.removed_at is null
          and c.block_height is not null
        order by d.id`,
  );
  let credited = 0;
  await runEach(
    rows,
    async (row) => {
      const confirmations = Math.max(0, Number(row.tip) - row.height + 1);
      if (confirmations !== row.confirmations)
        await db
          .update(deposits)
          .set({ confirmations })
          .where(and(eq(deposits.id, Number(row.id)), eq(deposits.status, "seen")));
      const required = input.network.confirmations[row.currency] ?? Number.POSITIVE_INFINITY;
      if (
        confirmations >= required &&
        (await creditDeposit(db, { depositId: Number(row.id), pricing: input.pricing }))
      )
        credited++;
    },
    (row) => `deposit ${row.id}`,
  );
  return credited;
}
