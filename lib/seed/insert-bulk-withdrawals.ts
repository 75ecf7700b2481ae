import "server-only";

import { sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { type BulkBatch, CURRENCY_CTE } from "./bulk-parameters";

/** The withdrawal rows of a batch, and the outgoing chain transactions of the sent ones. */
export async function insertBulkWithdrawals(tx: Executor, batch: BulkBatch): Promise<void> {
  const { merchantId: m, lo, hi } = batch;
  // Withdrawals; the sent ones then get their outgoing chain transaction.
  await tx.execute(sql`
    with ${CURRENCY_CTE()},
    w as (
      select t.id, t.type, t.status, t.currency as source, t.amount as principal, t.created_at, t.foreign_id,
             case when t.type = 'withdrawal' then t.currency when t.currency = 'USDTT' then 'BTC' else 'USDTT' end as target,
             round(t.amount * cur.withdrawal_fee_ppm / 1000000, cur.precision) as withdrawal_fee,
             cur.network_fee, cur.usd as source_usd,
             cur.prefix || substr(md5('w' || t.id) || md5('x' || t.id), 1, cur.addr_len) as address
      from transactions t join cur on cur.code = t.currency
      where t.id between ${lo} and ${hi} and t.type like 'withdrawal%'
    )
    insert into withdrawals (transaction_id, merchant_id, kind, foreign_id_raw, source_currency, target_currency,
                             principal, sent_amount, withdrawal_fee, network_fee, total_debit, rate_numerator, rate_denominator,
                             mid_rate_numerator, mid_rate_denominator, spread_ppm,
                             address, sender_type, sender_data, receiver_type, receiver_data, txid,
                             error, created_at, broadcast_at)
    select w.id, ${m}, w.type, to_jsonb(w.foreign_id), w.source, w.target,
           w.principal, round(w.principal * w.source_usd / tc.usd, tc.precision), w.withdrawal_fee, w.network_fee,
           w.principal + w.withdrawal_fee + w.network_fee,
           case when w.type = 'withdrawal' then null else w.source_usd * 100000000 end,
           case when w.type = 'withdrawal' then null else tc.usd * 100000000 end,
           case when w.type = 'withdrawal' then null else w.source_usd * 100000000 end,
           case when w.type = 'withdrawal' then null else tc.usd * 100000000 end,
           case when w.type = 'withdrawal' then null else 0 end,
           w.address, 'legal', '{"legal_name":"Shop GmbH","country_of_registration":"DEU"}'::jsonb,
           'natural', '{"first_name":"Alan","last_name":"Turing","date_of_birth":"1912-06-23"}'::jsonb,
           case when w.status = 'confirmed' then md5('out' || w.id) || md5('out2' || w.id) end,
           case w.status when 'error' then 'The network refused the transaction.' when 'rejected' then 'Rejected by an operator.' else null end,
           w.created_at,
           case when w.status = 'confirmed' then w.created_at + interval '1 minute' end
    from w join cur tc on tc.code = w.target`);
  await tx.execute(sql`
    insert into chain_transactions (currency, txid, address, amount, direction, block_height, created_at)
    select w.target_currency, w.txid, w.address, w.sent_amount, 'out', greatest(0, tip.height - 50), w.broadcast_at
    from withdrawals w join chain_tips tip on tip.currency = w.target_currency
    where w.transaction_id between ${lo} and ${hi} and w.txid is not null`);
  await tx.execute(sql`
    update withdrawals w set chain_transaction_id = c.id
    from chain_transactions c
    where w.transaction_id between ${lo} and ${hi} and w.txid is not null
      and c.currency = w.target_currency and c.txid = w.txid`);
}
