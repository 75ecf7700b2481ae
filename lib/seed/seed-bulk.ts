import "server-only";

import { sql } from "drizzle-orm";
import { type Db, queryRows } from "@/lib/db/client";
import { inTransaction } from "@/lib/db/transaction";
import { type BulkBatch, CURRENCY_CTE } from "./bulk-parameters";
import { insertBulkInvoices } from "./insert-bulk-invoices";
import { insertBulkPayments } from "./insert-bulk-payments";
import { insertBulkTransactions } from "./insert-bulk-transactions";
import { insertBulkWithdrawals } from "./insert-bulk-withdrawals";
import { postBulkLedger } from "./post-bulk-ledger";

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

/** One batch: ids lo..hi, every table the engine would touch for them, in one transaction. */
async function seedBatch(db: Db, batch: BulkBatch): Promise<void> {
  await inTransaction(db, async (tx) => {
    // Bulk statements over a whole batch may outlast the API's statement timeout.
    await tx.execute(sql`set local statement_timeout = 0`);
    await insertBulkTransactions(tx, batch);
    await insertBulkInvoices(tx, batch);
    await insertBulkPayments(tx, batch);
    await insertBulkWithdrawals(tx, batch);
    await postBulkLedger(tx, batch);
  });
}

/**
 * Fills one merchant with realistic history to measure the explorer at scale (`npm run seed:bulk`), generated
 * in SQL, a batch per transaction (a million rows take minutes): invoices 45 %, deposits 15 %, withdrawals
 * 30 %, with conversion 10 %, each with the engine's rows and balanced journals, so invariants hold. Dates
 * span `days` (a year), rising with the id; addresses and txids are sandbox look-alikes that cannot be paid.
 */
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
