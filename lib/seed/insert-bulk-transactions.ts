import "server-only";

import { sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { type BulkBatch, CURRENCY_CTE, HASH } from "./bulk-parameters";

/** A batch's transactions (kind, status and currency from a hash of the id) and their status history. */
export async function insertBulkTransactions(tx: Executor, batch: BulkBatch): Promise<void> {
  const { merchantId: m, lo, hi, firstId, startEpoch, step, run, customers } = batch;
  // The transactions: kind, status and currency from the hash; amounts at the currency's precision.
  await tx.execute(sql`
    with ${CURRENCY_CTE()},
    s as (
      select g as id, g, ${HASH} as h from generate_series(${lo}::bigint, ${hi}::bigint) g
    ),
    k as (
      select id, h, g,
        case when h % 100 < 45 then 'invoice' when h % 100 < 60 then 'deposit'
             when h % 100 < 90 then 'withdrawal' else 'withdrawal_exchange' end as type,
        (h / 100) % 100 as s,
        (h / 10000) % 7 as c,
        ((g * 2246822519::bigint) % 4294967296)::numeric / 4294967296 as r
      from s
    )
    insert into transactions (id, merchant_id, type, status, foreign_id, end_user_reference, currency, amount, created_at, updated_at)
    select k.id, ${m}, k.type,
      case k.type
        when 'invoice' then case when s < 55 then 'confirmed' when s < 75 then 'failed' when s < 80 then 'cancelled'
                                 when s < 88 then 'pending' when s < 95 then 'created' else 'processing' end
        when 'deposit' then case when s < 92 then 'confirmed' else 'processing' end
        else case when s < 86 then 'confirmed' when s < 93 then 'processing' when s < 97 then 'error' else 'rejected' end
      end,
      case when k.type = 'deposit' then null else 'bulk-' || ${run} || '-' || k.id end,
      'customer-' || (k.h % ${customers}),
      cur.code,
      round((cur.lo + (cur.hi - cur.lo) * k.r) / case when k.type like 'withdrawal%' then 5 else 1 end, cur.precision),
      to_timestamp(${startEpoch} + (k.id - ${firstId}) * ${step}::double precision),
      to_timestamp(${startEpoch} + (k.id - ${firstId}) * ${step}::double precision) + interval '25 minutes'
    from k join cur on cur.idx = k.c`);

  // Status history: the first status, and the final one where it differs.
  await tx.execute(sql`
    insert into transaction_events (transaction_id, merchant_id, from_status, to_status, reason, created_at)
    select t.id, t.merchant_id, null, case when t.type = 'invoice' then 'created' else 'processing' end,
           'accepted', t.created_at
    from transactions t where t.id between ${lo} and ${hi}
    union all
    select t.id, t.merchant_id, case when t.type = 'invoice' then 'created' else 'processing' end, t.status,
           case t.status when 'failed' then 'expired' when 'cancelled' then 'cancelled_by_merchant'
                         when 'confirmed' then case when t.type like 'withdrawal%' then 'confirmed' else 'paid' end
                         else t.status end,
           t.updated_at
    from transactions t
    where t.id between ${lo} and ${hi}
      and t.status <> case when t.type = 'invoice' then 'created' else 'processing' end`);
}
