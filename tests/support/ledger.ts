import { sql } from "drizzle-orm";
import { type Executor, queryRows } from "@/lib/db/client";
import { parseDecimal } from "@/lib/money";

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
