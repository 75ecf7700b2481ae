import "server-only";

import { sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { type BulkBatch, CURRENCY_CTE } from "./bulk-parameters";

/** The invoice rows of a batch's invoice transactions, with their deposit addresses. */
export async function insertBulkInvoices(tx: Executor, batch: BulkBatch): Promise<void> {
  const { lo, hi } = batch;
  // Invoices, with an address from the moment a currency was chosen (pending onwards).
  await tx.execute(sql`
    with ${CURRENCY_CTE()},
    a as (
      insert into deposit_addresses (merchant_id, currency, network, address, tag, derivation_path, kind, invoice_id, created_at)
      select t.merchant_id, t.currency, cur.network,
             cur.prefix || substr(md5('a' || t.id) || md5('b' || t.id), 1, cur.addr_len),
             '', 'bulk/' || t.id, 'invoice', t.id, t.created_at
      from transactions t join cur on cur.code = t.currency
      where t.id between ${lo} and ${hi} and t.type = 'invoice' and t.status in ('pending', 'processing', 'confirmed')
      returning id, invoice_id
    )
    insert into invoices (transaction_id, merchant_id, token, title, type, has_timer, url_success, url_failed,
                          email_user, sender_type, sender_data, sender_currency, sender_amount, rate_numerator,
                          rate_denominator, spread_ppm,
                          deposit_address_id, fixed_at, expires_at, paid_amount, confirmed_amount, credited_amount,
                          status_reason, created_at)
    select t.id, t.merchant_id, 'bulk' || substr(md5('token' || t.id), 1, 20), 'Order ' || t.id, 'fill_or_kill', true,
           'https://shop.example/paid', 'https://shop.example/failed',
           'buyer' || (t.id % 5000) || '@example.com', 'natural',
           '{"first_name":"Ada","last_name":"Lovelace","date_of_birth":"1990-12-10"}'::jsonb,
           case when a.id is null then null else t.currency end,
           case when a.id is null then null else t.amount end,
           case when a.id is null then null else 1::numeric end,
           case when a.id is null then null else 1::numeric end,
           case when a.id is null then null else 0 end,
           a.id,
           case when a.id is null then null else t.created_at + interval '1 minute' end,
           t.created_at + interval '20 minutes',
           case when t.status in ('processing', 'confirmed') then t.amount else 0 end,
           case when t.status = 'confirmed' then t.amount else 0 end,
           case when t.status = 'confirmed' then t.amount - round(t.amount * cur.deposit_fee_ppm / 1000000, cur.precision) else 0 end,
           case t.status when 'failed' then 'expired' when 'cancelled' then 'cancelled_by_merchant'
                         when 'confirmed' then 'paid' else null end,
           t.created_at
    from transactions t
    join cur on cur.code = t.currency
    left join a on a.invoice_id = t.id
    where t.id between ${lo} and ${hi} and t.type = 'invoice'`);
}
