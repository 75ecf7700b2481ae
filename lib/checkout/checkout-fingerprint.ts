import "server-only";

import { sql } from "drizzle-orm";
import { type Executor, queryRows } from "@/lib/db/client";

/**
 * A cheap summary of everything the checkout page shows that can change: status, amounts (a
 * re-price changes the amount due and `fixed_at`), address
 * and each payment's confirmations. The event stream compares it once a second and builds the full
 * view only when it differs.
 */
export async function checkoutFingerprint(db: Executor, token: string): Promise<string | null> {
  const [row] = await queryRows<{ fingerprint: string }>(
    db,
    sql`select concat_ws('|', t.status, i.paid_amount, i.confirmed_amount, i.deposit_address_id, i.expires_at,
              i.sender_amount, i.fixed_at,
              (select string_agg(d.id || ':' || coalesce(tip.height - c.block_height + 1, 0) || ':' || d.status, ',' order by d.id)
                 from deposits d
                 join chain_transactions c on c.id = d.chain_transaction_id
                 left join chain_tips tip on tip.currency = c.currency
                where d.transaction_id = t.id)) as fingerprint
        from invoices i join transactions t on t.id = i.transaction_id
        where i.token = ${token}`,
  );
  return row?.fingerprint ?? null;
}
