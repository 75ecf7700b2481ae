import { sql } from "drizzle-orm";
import { getCurrency } from "@/lib/currencies/registry";
import { type Db, type Executor, queryRows } from "@/lib/db/client";
import { inTransaction } from "@/lib/db/transaction";
import { postJournalsSql } from "@/lib/ledger/post-journal";

/**
 * Fills one merchant with a history of realistic transactions for measuring the explorer and the
 * lookups at scale (`npm run seed:bulk`). Everything is generated inside the database with
 * `generate_series`, a batch per transaction, so a million rows take minutes: a mix of invoices
 * (45 %), deposits (15 %), withdrawals (30 %) and withdrawals with conversion (10 %), each with the
 * rows the engine would have written for it (invoice, deposit address, chain transaction, deposit,
 * withdrawal, status events) and balanced ledger journals for every movement of money, so
 * `transactions/info`, the explorer, the balances and the ledger invariants all hold. Dates spread
 * over the past year, increasing with the id, as they do in real use. Addresses and txids are
 * well-formed look-alikes (sandbox data): nothing here can receive money.
 */
export const BULK_CURRENCIES = ["BTC", "ETH", "USDTT", "LTC", "USDTE", "TRX", "DOGE"] as const;

/** Amount ranges for deposits and invoices; withdrawals take a fifth, so balances stay positive. */
const RANGES: Record<(typeof BULK_CURRENCIES)[number], [string, string]> = {
  BTC: ["0.001", "0.1"],
  ETH: ["0.01", "2"],
  USDTT: ["5", "2000"],
  LTC: ["0.1", "20"],
  USDTE: ["5", "2000"],
  TRX: ["20", "5000"],
  DOGE: ["50", "20000"],
};

/** Rough USD prices, for the amounts of conversions. */
const USD: Record<(typeof BULK_CURRENCIES)[number], string> = {
  BTC: "60000",
  ETH: "3000",
  USDTT: "1",
  LTC: "80",
  USDTE: "1",
  TRX: "0.12",
  DOGE: "0.15",
};

const ADDRESS_SHAPES: Record<string, [prefix: string, length: number]> = {
  bitcoin: ["bc1q", 38],
  litecoin: ["ltc1q", 38],
  dogecoin: ["D", 33],
  ethereum: ["0x", 40],
  tron: ["T", 33],
};

/** The currency parameters as a VALUES list (constants from the registry, never user input). */
function currencyValues(): string {
  return BULK_CURRENCIES.map((code, i) => {
    const c = getCurrency(code);
    const [lo, hi] = RANGES[code];
    const [prefix, length] = ADDRESS_SHAPES[c.addressFormat ?? ""] ?? ["x", 34];
    const fee = (value: bigint) => (Number(value) / 1e8).toFixed(8);
    return `(${i}, '${code}', '${c.network}', ${lo}::numeric, ${hi}::numeric, ${c.precision}, ${c.depositFeePpm}, ${c.withdrawalFeePpm}, ${fee(c.networkFee)}::numeric, '${prefix}', ${length}, ${c.confirmations}, ${USD[code]}::numeric)`;
  }).join(",\n");
}

const CURRENCY_CTE = () =>
  sql.raw(
    `cur(idx, code, network, lo, hi, precision, deposit_fee_ppm, withdrawal_fee_ppm, network_fee, prefix, addr_len, confirmations, usd) as (values ${currencyValues()})`,
  );

/** A deterministic per-id hash, so a batch can be regenerated identically. */
const HASH = sql.raw("((g * 2654435761::bigint) % 4294967296)");

const SEEDED_TABLES = [
  "transactions",
  "transaction_events",
  "invoices",
  "deposit_addresses",
  "chain_transactions",
  "deposits",
  "withdrawals",
  "journals",
  "ledger_entries",
];

export type BulkSeedOptions = {
  merchantId: number;
  transactions: number;
  batchSize?: number;
  /** Days of history, ending now. */
  days?: number;
  onProgress?: (done: number, total: number) => void;
};

export type BulkSeedResult = { firstId: number; lastId: number; seconds: number };

/** Reserves `count` consecutive transaction ids, safe while a server is inserting too. */
async function reserveIds(db: Db, count: number): Promise<number> {
  return inTransaction(db, async (tx) => {
    await tx.execute(sql`lock table transactions in share row exclusive mode`);
    const [row] = await queryRows<{ first: string }>(
      tx,
      sql`select nextval('transactions_id_seq')::text as first`,
    );
    const first = Number(row!.first);
    await tx.execute(sql`select setval('transactions_id_seq', ${first + count - 1})`);
    return first;
  });
}

/** Deep enough chains that seeded confirmations count as final. */
async function deepenChains(db: Db): Promise<void> {
  await db.execute(sql`update chain_tips set height = greatest(height, 1000)`);
}

/** Permanent deposit addresses for 200 customers per currency (the `deposit` kind's addresses). */
async function preparePermanentAddresses(db: Db, merchantId: number, run: string): Promise<void> {
  await db.execute(sql`
    with ${CURRENCY_CTE()}
    insert into deposit_addresses (merchant_id, currency, network, address, tag, derivation_path, kind, foreign_id)
    select ${merchantId}, cur.code, cur.network,
           cur.prefix || substr(md5(${run} || 'perm' || k || cur.code) || md5(cur.code || k || ${run}), 1, cur.addr_len),
           '', 'bulk/' || ${run} || '/' || k, 'permanent', 'bulk-customer-' || ${run} || '-' || k
    from cur, generate_series(0, 199) k
    on conflict do nothing`);
}

/** One batch: ids lo..hi, every table the engine would touch for them. */
async function seedBatch(
  db: Db,
  input: {
    merchantId: number;
    lo: number;
    hi: number;
    firstId: number;
    startEpoch: number;
    step: number;
    run: string;
    customers: number;
  },
): Promise<void> {
  const { merchantId: m, lo, hi, firstId, startEpoch, step, run, customers } = input;
  await inTransaction(db, async (tx) => {
    // Bulk statements over a whole batch may outlast the API's statement timeout.
    await tx.execute(sql`set local statement_timeout = 0`);
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

    await postLedger(tx, { merchantId: m, lo, hi });
  });
}

/**
 * Balanced journals for the batch, with the same kinds and entries the engine posts: a payment or
 * deposit credit (chain → merchant less the fee → fees), a withdrawal's debit (merchant →
 * clearing), its settlement (clearing → fees, chain or exchange) or its refund (clearing → merchant).
 * Posted by kassa_post_journals() (drizzle/0010), the engine's one posting implementation, all the
 * batch's journals in one call: it creates the accounts, writes the journals and entries, and moves
 * each touched balance once by the batch's net (a merchant's only if it stays at or above zero).
 */
async function postLedger(tx: Executor, input: { merchantId: number; lo: number; hi: number }) {
  const { merchantId: m, lo, hi } = input;
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

export async function seedBulk(db: Db, options: BulkSeedOptions): Promise<BulkSeedResult> {
  const started = Date.now();
  const batchSize = options.batchSize ?? 20_000;
  const days = options.days ?? 365;
  const run = Date.now().toString(36);
  await deepenChains(db);
  await preparePermanentAddresses(db, options.merchantId, run);
  const firstId = await reserveIds(db, options.transactions);
  const lastId = firstId + options.transactions - 1;
  const startEpoch = Math.floor(Date.now() / 1000) - days * 86_400;
  const step = (days * 86_400) / options.transactions;
  // About 200 transactions per customer (end_user_reference), as with a shop's regulars.
  const customers = Math.max(10, Math.min(5_000, Math.floor(options.transactions / 200)));
  for (let lo = firstId; lo <= lastId; lo += batchSize) {
    const hi = Math.min(lo + batchSize - 1, lastId);
    await seedBatch(db, {
      merchantId: options.merchantId,
      lo,
      hi,
      firstId,
      startEpoch,
      step,
      run,
      customers,
    });
    // Fresh tables have no statistics, and the batch's joins plan badly without them.
    if (lo === firstId) await db.execute(sql`analyze ${sql.raw(SEEDED_TABLES.join(", "))}`);
    options.onProgress?.(hi - firstId + 1, options.transactions);
  }
  await db.execute(sql`analyze ${sql.raw(SEEDED_TABLES.join(", "))}`);
  return { firstId, lastId, seconds: Math.round((Date.now() - started) / 1000) };
}
