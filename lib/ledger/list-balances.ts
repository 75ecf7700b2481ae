import "server-only";

import { sql } from "drizzle-orm";
import { type Executor, queryRows } from "@/lib/db/client";
import { parseStoredAmount } from "@/lib/money";

export type Balance = { currency: string; type: "crypto" | "fiat"; balance: bigint };

/** Every visible currency with the merchant's balance in it, zero where it has none (as the public API lists). */
export async function listBalances(db: Executor, merchantId: number): Promise<Balance[]> {
  const rows = await queryRows<{ currency: string; kind: "crypto" | "fiat"; balance: string }>(
    db,
    sql`select c.code as currency, c.kind, coalesce(a.balance, 0)::text as balance
        from currencies c
        left join ledger_accounts a
          on a.currency = c.code and a.merchant_id = ${merchantId} and a.kind = 'balance'
        where c.is_visible
        order by c.id`,
  );
  return rows.map((row) => ({
    currency: row.currency,
    type: row.kind,
    balance: parseStoredAmount(row.balance),
  }));
}
