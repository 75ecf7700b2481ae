import "server-only";

import { sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { type BulkBatch, CURRENCY_CTE } from "./bulk-parameters";

/** The chain payments and deposit rows of a batch's paid invoices and deposits. */
export async function insertBulkPayments(tx: Executor, batch: BulkBatch): Promise<void> {
  const { merchantId: m, lo, hi, run } = batch;
  // Payments on the chain: for paid invoices and for deposits to the customers' permanent addresses.
  await tx.execute(sql`
    with ${CURRENCY_CTE()},
    p as (
      select t.id, t.currency, t.amount, t.status, t.created_at, cur.confirmations, (t.id * 2654435761::bigint) % 500 as depth,
             md5('tx' || t.id) || md5('tx2' || t.id) as txid,
             case when t.type = 'invoice'
                  then cur.prefix || substr(md5('a' || t.id) || md5('b' || t.id), 1, cur.addr_len)
                  else cur.prefix || substr(md5(${run} || 'perm' || (t.id % 200) || cur.code) || md5(cur.code || (t.id % 200) || ${run}), 1, cur.addr_len)
             end as address
      from transactions t join cur on cur.code = t.currency
      where t.id between ${lo} and ${hi}
        and (t.type = 'deposit' or (t.type = 'invoice' and t.status in ('processing', 'confirmed')))
    ),
    c as (
      insert into chain_transactions (currency, txid, address, amount, direction, block_height, created_at)
      select p.currency, p.txid, p.address, p.amount, 'in',
             case when p.status = 'confirmed'
                  then (select greatest(0, tip.height - p.confirmations - p.depth) from chain_tips tip where tip.currency = p.currency)
                  else null end,
             p.created_at + interval '2 minutes'
      from p
      returning id, txid, currency, address
    )
    insert into deposits (merchant_id, deposit_address_id, transaction_id, chain_transaction_id, currency, amount,
                          confirmations, status, credited_at, created_at)
    select ${m}, da.id, p.id, c.id, p.currency, p.amount,
           case when p.status = 'confirmed' then p.confirmations else 0 end,
           case when p.status = 'confirmed' then 'credited' else 'seen' end,
           case when p.status = 'confirmed' then p.created_at + interval '20 minutes' else null end,
           p.created_at + interval '2 minutes'
    from p
    join c on c.txid = p.txid and c.currency = p.currency
    join deposit_addresses da on da.currency = p.currency and da.address = p.address and da.tag = ''`);

  // A deposit's details name its address and, once credited, the fee and the net credit.
  await tx.execute(sql`
    with ${CURRENCY_CTE()}
    update transactions t
    set details = jsonb_build_object('deposit_address_id', d.deposit_address_id)
      || case when t.status = 'confirmed' then jsonb_build_object(
           'fee', round(round(t.amount * cur.deposit_fee_ppm / 1000000, cur.precision), 8)::text,
           'net', round(t.amount - round(t.amount * cur.deposit_fee_ppm / 1000000, cur.precision), 8)::text)
         else '{}'::jsonb end
    from deposits d, cur
    where t.id between ${lo} and ${hi} and t.type = 'deposit'
      and d.transaction_id = t.id and cur.code = t.currency`);
}
