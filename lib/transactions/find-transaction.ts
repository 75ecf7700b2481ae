import { and, eq, sql } from "drizzle-orm";
import { type Executor, queryRows } from "@/lib/db/client";
import { transactions } from "@/lib/db/schema";
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
  if (by.id !== undefined) {
    const [row] = await db
      .select({ id: transactions.id, type: transactions.type })
      .from(transactions)
      .where(and(eq(transactions.id, by.id), eq(transactions.merchantId, merchantId)));
    return row;
  }
  if (by.foreign_id !== undefined) {
    const [row] = await db
      .select({ id: transactions.id, type: transactions.type })
      .from(transactions)
      .where(
        and(
          eq(transactions.foreignId, foreignIdText(by.foreign_id)),
          eq(transactions.merchantId, merchantId),
        ),
      );
    return row;
  }
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
