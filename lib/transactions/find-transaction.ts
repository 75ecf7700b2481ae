import "server-only";

import { sql } from "drizzle-orm";
import { type Executor, queryRows, queryRowsPrepared } from "@/lib/db/client";
import { foreignIdText } from "@/lib/schemas/withdrawals";

/**
 * Finds one of the merchant's transactions by exactly one identifier. Every lookup is scoped by
 * merchant: another merchant's transaction is simply not found.
 */
export async function findTransactionId(
  db: Executor,
  merchantId: number,
  by: { id?: number; foreign_id?: unknown; txid?: string },
): Promise<number | undefined> {
  return (await findTransaction(db, merchantId, by))?.id;
}

/** The same lookup, with the transaction's type when the lookup read it anyway (by id or foreign_id). */
export async function findTransaction(
  db: Executor,
  merchantId: number,
  by: { id?: number; foreign_id?: unknown; txid?: string },
): Promise<{ id: number; type?: string } | undefined> {
  if (by.id !== undefined || by.foreign_id !== undefined) {
    const where =
      by.id !== undefined ? sql`id = ${by.id}` : sql`foreign_id = ${foreignIdText(by.foreign_id)}`;
    // Raw: a named prepared statement behind every transactions/info (docs/BENCHMARKS.md).
    const [row] = await queryRowsPrepared<{ id: string | number; type: string }>(
      db,
      sql`select id, type from transactions where ${where} and merchant_id = ${merchantId}`,
    );
    return row && { id: Number(row.id), type: row.type };
  }
  // Raw: transactions/info by txid, measured at a million rows (bench/explorer.ts); each branch its own index.
  const [row] = await queryRows<{ id: string | number }>(
    db,
    sql`select d.transaction_id as id from deposits d join chain_transactions c on c.id = d.chain_transaction_id
        where c.txid = ${by.txid} and d.merchant_id = ${merchantId}
        union all
        select w.transaction_id from withdrawals w where w.txid = ${by.txid} and w.merchant_id = ${merchantId}
        limit 1`,
  );
  return row ? { id: Number(row.id) } : undefined;
}
