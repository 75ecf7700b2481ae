import { sql } from "drizzle-orm";
import type { Pool } from "pg";
import { type Executor, queryRows } from "@/lib/db/client";
import { parseDecimal } from "@/lib/money";
import type { TestDatabase } from "./database";

/** The ledger's invariants: entries sum to zero per currency, and each balance equals its entries. */
export async function ledgerInvariants(db: Executor) {
  const sums = await queryRows<{ currency: string; total: string }>(
    db,
    sql`select currency, sum(amount)::text as total from ledger_entries group by currency`,
  );
  const mismatched = await queryRows<{ id: number }>(
    db,
    sql`select a.id from ledger_accounts a
        left join (select account_id, sum(amount) as total from ledger_entries group by account_id) e on e.account_id = a.id
        where a.balance <> coalesce(e.total, 0)`,
  );
  const negative = await queryRows<{ id: number }>(
    db,
    sql`select id from ledger_accounts where merchant_id is not null and balance < 0`,
  );
  return {
    nonZeroCurrencies: sums.filter((row) => parseDecimal(row.total) !== 0n).map((row) => row.currency),
    accountsNotMatchingEntries: mismatched.length,
    negativeMerchantBalances: negative.length,
  };
}

/** Sessions of the current PostgreSQL database waiting for a lock (a row's, a table's). */
export async function lockWaiters(db: Executor): Promise<number> {
  const rows = await queryRows(
    db,
    sql`select 1 from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()`,
  );
  return rows.length;
}

/**
 * Runs `during` while a second PostgreSQL session holds the merchant's balance row in `currency` as a
 * debit does (FOR NO KEY UPDATE, which lets the entries' foreign keys through), then lets it go.
 */
export async function whileBalanceHeld(
  database: TestDatabase,
  balance: { merchantId: number; currency: string },
  during: () => Promise<void>,
): Promise<void> {
  const holder = await (database.driver as { kind: "pg"; pool: Pool }).pool.connect();
  try {
    await holder.query("begin");
    await holder.query(
      "select id from ledger_accounts where merchant_id = $1 and kind = 'balance' and currency = $2 for no key update",
      [balance.merchantId, balance.currency],
    );
    await during();
  } finally {
    await holder.query("commit");
    holder.release();
  }
}
