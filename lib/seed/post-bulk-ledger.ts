import "server-only";

import { sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { postJournalsSql } from "@/lib/ledger/post-journal";
import { type BulkBatch, CURRENCY_CTE } from "./bulk-parameters";

/**
 * Posts the batch's journals, the kinds and entries the engine posts (payment or deposit credits,
 * withdrawal debits, settlements, refunds), in one kassa_post_journals() call
 * (docs/decisions/ledger-posting-in-sql.md): each touched balance moves once by the batch's net, a
 * merchant's only if it stays at or above zero.
 */
export async function postBulkLedger(tx: Executor, batch: BulkBatch): Promise<void> {
  const { merchantId: m, lo, hi } = batch;
  await tx.execute(sql`
    with ${CURRENCY_CTE()},
    paid as (
      select t.id, t.type, t.currency, t.amount, t.created_at,
             round(t.amount * cur.deposit_fee_ppm / 1000000, cur.precision) as fee
      from transactions t join cur on cur.code = t.currency
      where t.id between ${lo} and ${hi} and t.type in ('invoice', 'deposit') and t.status = 'confirmed'
    ),
    w as (
      select w.*, t.status from withdrawals w join transactions t on t.id = w.transaction_id
      where w.transaction_id between ${lo} and ${hi}
    ),
    plan (id, at, kind, account_kind, currency, amount) as (
      -- deposits and paid invoices: from the chain to the merchant, less the fee
      select p.id, p.created_at, case p.type when 'invoice' then 'invoice_payment' else 'deposit' end, e.k, p.currency, e.amount
      from paid p cross join lateral (values
        ('platform:chain', -p.amount), ('balance', p.amount - p.fee), ('platform:fees', p.fee)) e(k, amount)
      union all
      -- every withdrawal is debited on acceptance
      select w.transaction_id, w.created_at, 'withdrawal_debit', e.k, w.source_currency, e.amount
      from w cross join lateral (values ('balance', -w.total_debit), ('platform:clearing', w.total_debit)) e(k, amount)
      union all
      -- sent: settled from clearing to the fees and the chain (or the exchange position)
      select w.transaction_id, w.broadcast_at, 'withdrawal_sent', e.k, e.currency, e.amount
      from w cross join lateral (values
        ('platform:clearing', w.source_currency, -w.total_debit),
        ('platform:fees', w.source_currency, w.withdrawal_fee + w.network_fee),
        (case when w.source_currency = w.target_currency then 'platform:chain' else 'platform:exchange' end, w.source_currency, w.principal),
        ('platform:exchange', w.target_currency, case when w.source_currency = w.target_currency then 0 else -w.sent_amount end),
        ('platform:chain', w.target_currency, case when w.source_currency = w.target_currency then 0 else w.sent_amount end)
      ) e(k, currency, amount)
      where w.status = 'confirmed'
      union all
      -- refused or rejected: the funds go back
      select w.transaction_id, w.created_at + interval '5 minutes', 'withdrawal_refund', e.k, w.source_currency, e.amount
      from w cross join lateral (values ('platform:clearing', -w.total_debit), ('balance', w.total_debit)) e(k, amount)
      where w.status in ('error', 'rejected')
    ),
    journal as (
      select id, kind, min(at) as at,
             jsonb_agg(jsonb_build_object(
               'merchant_id', case when account_kind = 'balance' then ${m}::bigint end,
               'kind', account_kind, 'currency', currency, 'amount', amount::text)) as entries
      from plan where amount <> 0 group by id, kind
    )
    select ${postJournalsSql(sql`coalesce(jsonb_agg(jsonb_build_object(
             'merchant_id', ${m}::bigint, 'transaction_id', id, 'kind', kind,
             'memo', 'Seeded history (npm run seed:bulk)', 'created_at', at, 'entries', entries)
             order by id, at), '[]'::jsonb)`)}
    from journal`);
}
