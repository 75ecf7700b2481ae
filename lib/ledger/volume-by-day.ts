import "server-only";

import { sql } from "drizzle-orm";
import { type Executor, queryRows } from "@/lib/db/client";
import { parseStoredAmount } from "@/lib/money";

export type DailyVolume = { day: string; currency: string; incoming: bigint; outgoing: bigint };

/** Money into and out of the merchant's balances per day and currency, from the ledger (last `days` days). */
export async function volumeByDay(db: Executor, merchantId: number, days = 14): Promise<DailyVolume[]> {
  const rows = await queryRows<{ day: string; currency: string; incoming: string; outgoing: string }>(
    db,
    sql`select to_char(date_trunc('day', e.created_at), 'YYYY-MM-DD') as day, e.currency,
               coalesce(sum(e.amount) filter (where e.amount > 0), 0)::text as incoming,
               coalesce(-sum(e.amount) filter (where e.amount < 0), 0)::text as outgoing
        from ledger_entries e
        join ledger_accounts a on a.id = e.account_id
        where a.merchant_id = ${merchantId} and a.kind = 'balance'
          and e.created_at >= date_trunc('day', now()) - make_interval(days => ${days - 1})
        group by 1, 2
        order by 1, 2`,
  );
  return rows.map((row) => ({
    day: row.day,
    currency: row.currency,
    incoming: parseStoredAmount(row.incoming),
    outgoing: parseStoredAmount(row.outgoing),
  }));
}
