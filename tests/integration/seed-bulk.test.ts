import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "@/lib/db/client";
import { createInvoice } from "@/lib/invoices/create-invoice";
import { createMerchant } from "@/lib/merchants/create-merchant";
import { transactionInfoResponse } from "@/lib/schemas/transactions";
import { seedBulk } from "@/lib/seed/seed-bulk";
import { describeTransaction } from "@/lib/transactions/describe-transaction";
import { findTransactionId } from "@/lib/transactions/find-transaction";
import { listTransactions } from "@/lib/transactions/list-transactions";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { invoiceRequest, settings } from "../support/invoices";

describe(`seed:bulk history and the explorer's search on ${testDriver}`, () => {
  let database: TestDatabase;
  let merchantId: number;
  let otherMerchantId: number;
  const COUNT = 2_500;

  const rows = <T>(query: ReturnType<typeof sql>) => queryRows<T>(database.db, query);
  const merchant = (name: string) =>
    createMerchant(database.db, database.box, {
      name,
      email: `${name.toLowerCase().replace(/\W/g, "")}@example.com`,
      password: "long password 1",
    });

  beforeAll(async () => {
    database = await createTestDatabase();
    merchantId = (await merchant("Bulk")).merchantId;
    otherMerchantId = (await merchant("Other")).merchantId;
    const result = await seedBulk(database.db, { merchantId, transactions: COUNT, batchSize: 1_000 });
    expect(result.lastId - result.firstId + 1).toBe(COUNT);
  }, 120_000);
  afterAll(() => database.drop());

  it("writes every kind and status, and the books balance", async () => {
    const kinds = await rows<{ type: string; statuses: number }>(
      sql`select type, count(distinct status)::int as statuses from transactions where merchant_id = ${merchantId} group by type order by type`,
    );
    expect(kinds).toEqual([
      { type: "deposit", statuses: 2 },
      { type: "invoice", statuses: 6 },
      { type: "withdrawal", statuses: 4 },
      { type: "withdrawal_exchange", statuses: 4 },
    ]);
    const [journals] = await rows<{ unbalanced: number }>(
      sql`select count(*)::int as unbalanced from (
            select journal_id, currency from ledger_entries group by journal_id, currency having sum(amount) <> 0) x`,
    );
    expect(journals!.unbalanced).toBe(0);
    const [accounts] = await rows<{ mismatched: number; negative: number }>(
      sql`select count(*) filter (where a.balance <> coalesce(e.total, 0))::int as mismatched,
                 count(*) filter (where a.merchant_id is not null and a.balance < 0)::int as negative
          from ledger_accounts a
          left join (select account_id, sum(amount) as total from ledger_entries group by account_id) e
            on e.account_id = a.id`,
    );
    expect(accounts).toEqual({ mismatched: 0, negative: 0 });
    const [dates] = await rows<{ decreasing: number }>(
      sql`select count(*)::int as decreasing from (
            select created_at < lag(created_at) over (order by id) as is_earlier from transactions where merchant_id = ${merchantId}) x
          where is_earlier`,
    );
    expect(dates!.decreasing).toBe(0);
  });

  it("every seeded kind and status reads back through transactions/info in the documented shape", async () => {
    const samples = await rows<{ id: number }>(
      sql`select distinct on (type, status) id from transactions where merchant_id = ${merchantId} order by type, status, id`,
    );
    expect(samples.length).toBe(16);
    for (const { id } of samples) {
      const described = await describeTransaction(database.db, Number(id));
      const parsed = transactionInfoResponse.safeParse(described);
      expect(parsed.success, `transaction ${id}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
    }
  });

  it("search finds a transaction by foreign_id, txid, address, reference and id, for its merchant only", async () => {
    const [withdrawal] = await rows<{ id: number; foreign_id: string; txid: string; address: string }>(
      sql`select w.transaction_id as id, t.foreign_id, w.txid, w.address from withdrawals w
          join transactions t on t.id = w.transaction_id
          where w.merchant_id = ${merchantId} and w.txid is not null order by w.transaction_id limit 1`,
    );
    const [invoice] = await rows<{ id: number; address: string }>(
      sql`select invoice_id as id, address from deposit_addresses
          where merchant_id = ${merchantId} and kind = 'invoice' order by id limit 1`,
    );
    const [deposit] = await rows<{ id: number; txid: string }>(
      sql`select d.transaction_id as id, c.txid from deposits d join chain_transactions c on c.id = d.chain_transaction_id
          join transactions t on t.id = d.transaction_id
          where d.merchant_id = ${merchantId} and t.type = 'deposit' order by d.id limit 1`,
    );
    const search = async (query: string, forMerchant = merchantId) =>
      (await listTransactions(database.db, { merchantId: forMerchant, filter: { query } })).rows.map(
        (r) => r.id,
      );

    const id = Number(withdrawal!.id);
    expect(await search(withdrawal!.foreign_id)).toEqual([id]);
    expect(await search(` ${withdrawal!.txid} `)).toEqual([id]);
    expect(await search(withdrawal!.address)).toEqual([id]);
    expect(await search(String(id))).toEqual([id]);
    expect(await search(invoice!.address)).toEqual([Number(invoice!.id)]);
    expect(await search(deposit!.txid)).toEqual([Number(deposit!.id)]);
    expect(await findTransactionId(database.db, merchantId, { txid: deposit!.txid })).toBe(
      Number(deposit!.id),
    );

    // A reference matches all of that customer's transactions, newest first.
    const [customer] = await rows<{ reference: string; count: number }>(
      sql`select end_user_reference as reference, count(*)::int as count from transactions
          where merchant_id = ${merchantId} group by 1 order by 2 desc limit 1`,
    );
    const byReference = await search(customer!.reference);
    expect(byReference.length).toBe(Math.min(customer!.count, 50));
    expect(customer!.count).toBeGreaterThan(1);
    expect([...byReference].sort((a, b) => b - a)).toEqual(byReference);

    // The same foreign_id at another merchant: each merchant finds only its own.
    const theirs = await createInvoice(database.db, {
      merchantId: otherMerchantId,
      request: invoiceRequest({ foreign_id: withdrawal!.foreign_id }),
      settings,
    });
    expect(await search(withdrawal!.foreign_id, otherMerchantId)).toEqual([theirs.id]);
    expect(await search(withdrawal!.foreign_id)).toEqual([id]);
    expect(await search(withdrawal!.txid, otherMerchantId)).toEqual([]);
    expect(await search(String(id), otherMerchantId)).toEqual([]);
  });

  it("filters combine with search and with each other", async () => {
    const page = await listTransactions(database.db, {
      merchantId,
      filter: { types: ["withdrawal"], statuses: ["confirmed"], currency: "BTC" },
    });
    expect(page.rows.length).toBeGreaterThan(0);
    for (const row of page.rows)
      expect(row).toMatchObject({ type: "withdrawal", status: "confirmed", currency: "BTC" });
    const none = await listTransactions(database.db, {
      merchantId,
      filter: { types: ["deposit"], query: page.rows[0]!.foreign_id! },
    });
    expect(none.rows).toEqual([]);
  });
});
