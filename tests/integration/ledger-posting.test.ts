import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import type { Pool, PoolClient } from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Db, queryRows } from "@/lib/db/client";
import * as schema from "@/lib/db/schema";
import { creditSandboxBalance } from "@/lib/ledger/credit-sandbox-balance";
import { parseDecimal } from "@/lib/money";
import { withdrawalRequest } from "@/lib/schemas/withdrawals";
import { seedBulk } from "@/lib/seed/seed-bulk";
import { createWithdrawal } from "@/lib/withdrawals/create-withdrawal";
import { withdrawalInput } from "@/lib/withdrawals/from-request";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { pricing } from "../support/invoices";
import { ledgerInvariants } from "../support/ledger";
import { createTestMerchant } from "../support/merchants";
import { waitUntil } from "../support/wait";

const BTC_ADDRESS = "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu";

let counter = 0;
const withdrawal = (merchantId: number, amount = "0.01") =>
  withdrawalInput(
    merchantId,
    withdrawalRequest.parse({
      currency: "BTC",
      amount,
      address: BTC_ADDRESS,
      foreign_id: `posting-${++counter}`,
      end_user_reference: `payee-${counter}`,
      sender_type: "legal",
      sender_data: { legal_name: "Shop GmbH", country_of_registration: "DEU" },
      receiver_type: "self",
    }),
    pricing,
  );

describe(`one ledger posting implementation on ${testDriver}`, () => {
  let database: TestDatabase;
  let merchantId: number;

  beforeAll(async () => {
    database = await createTestDatabase();
    merchantId = await createTestMerchant(database, "Posting");
  });
  afterAll(() => database.drop());

  it("posts every journal of every path (postJournal, the withdrawal write, seed:bulk) through kassa_post_journals", async () => {
    // A spy in the database: the function is renamed and a wrapper that records each journal it is
    // given takes its name. Any path that wrote journals another way would leave them unrecorded.
    await database.db.execute(
      sql`alter function kassa_post_journals(jsonb) rename to kassa_post_journals_spied`,
    );
    await database.db.execute(sql`create table posting_calls (n bigserial, kind text not null)`);
    await database.db.execute(
      sql.raw(`create function kassa_post_journals(journals jsonb) returns bigint[] as $$
        begin
          insert into posting_calls (kind) select j ->> 'kind' from jsonb_array_elements(journals) j;
          return kassa_post_journals_spied(journals);
        end $$ language plpgsql`),
    );

    await creditSandboxBalance(database.db, {
      merchantId,
      currency: "BTC",
      amount: parseDecimal("1"),
      isSandbox: true,
    });
    await createWithdrawal(database.db, withdrawal(merchantId));
    await createWithdrawal(database.db, withdrawal(merchantId));
    await seedBulk(database.db, { merchantId, transactions: 300 });

    const kinds = async (query: ReturnType<typeof sql>) =>
      (await queryRows<{ kind: string; count: number }>(database.db, query)).map(
        (r) => `${r.kind}:${r.count}`,
      );
    const posted = await kinds(
      sql`select kind, count(*)::int as count from posting_calls group by kind order by kind`,
    );
    const written = await kinds(
      sql`select kind, count(*)::int as count from journals group by kind order by kind`,
    );
    expect(posted).toEqual(written);
    expect(written).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^sandbox_credit:1$/),
        expect.stringMatching(/^withdrawal_debit:/),
      ]),
    );
    expect(written.length).toBeGreaterThanOrEqual(4); // seed:bulk's payments and settlements too
    expect(await ledgerInvariants(database.db)).toEqual({
      nonZeroCurrencies: [],
      accountsNotMatchingEntries: 0,
      negativeMerchantBalances: 0,
    });
  });
});

// PGlite has one session, so no second one can hold or wait for a lock; on PostgreSQL it can.
if (testDriver === "pg") {
  describe("posting locks on pg", () => {
    let database: TestDatabase;
    let pool: Pool;
    let merchantId: number;
    let balanceAccountId: number;

    beforeAll(async () => {
      database = await createTestDatabase();
      pool = (database.driver as { kind: "pg"; pool: Pool }).pool;
      merchantId = await createTestMerchant(database, "Locks");
      await creditSandboxBalance(database.db, {
        merchantId,
        currency: "BTC",
        amount: parseDecimal("1"),
        isSandbox: true,
      });
      await createWithdrawal(database.db, withdrawal(merchantId)); // the clearing account exists from here
      const [account] = await queryRows<{ id: string }>(
        database.db,
        sql`select id::text from ledger_accounts where merchant_id = ${merchantId} and kind = 'balance' and currency = 'BTC'`,
      );
      balanceAccountId = Number(account!.id);
    });
    afterAll(() => database.drop());

    /**
     * What every posting does first: insert entries for the account, which takes FOR KEY SHARE on
     * its row through the foreign key. With a short lock_timeout, so a block fails fast instead of
     * hanging; rolled back, it leaves nothing.
     */
    async function insertEntryOnTheBalance(): Promise<void> {
      const client = await pool.connect();
      try {
        await client.query("begin");
        await client.query("set local lock_timeout = '2s'");
        const journal = await client.query<{ id: string }>(
          "insert into journals (merchant_id, kind) values ($1, 'lock_probe') returning id",
          [merchantId],
        );
        await client.query(
          "insert into ledger_entries (journal_id, account_id, currency, amount) values ($1, $2, 'BTC', 1)",
          [journal.rows[0]!.id, balanceAccountId],
        );
      } finally {
        await client.query("rollback");
        client.release();
      }
    }

    const waitingOnLocks = async () =>
      (
        await queryRows(
          database.db,
          sql`select 1 from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()`,
        )
      ).length;

    it("lets entries be inserted for an account whose balance a withdrawal holds until its commit", async () => {
      const holder: PoolClient = await pool.connect();
      try {
        await holder.query("begin");
        // The withdrawal's one statement, run inside an open transaction: its locks stay held.
        await createWithdrawal(drizzle(holder, { schema }) as unknown as Db, withdrawal(merchantId));
        // An explicit FOR UPDATE on the balance row would block this (lock_timeout, SQLSTATE 55P03).
        await expect(insertEntryOnTheBalance()).resolves.toBeUndefined();
        await holder.query("commit");
      } finally {
        holder.release();
      }
    });

    it("lets entries be inserted while a withdrawal waits for the balance row", async () => {
      const holder = await pool.connect();
      try {
        await holder.query("begin");
        // Another posting in flight on the same balance: an UPDATE, FOR NO KEY UPDATE.
        await holder.query("update ledger_accounts set balance = balance where id = $1", [balanceAccountId]);
        const pending = createWithdrawal(database.db, withdrawal(merchantId));
        const waiting = await waitUntil(async () => (await waitingOnLocks()) || false, {
          what: "the withdrawal waits for the balance row's lock",
        });
        expect(waiting).toBe(1);
        await expect(insertEntryOnTheBalance()).resolves.toBeUndefined();
        await holder.query("commit");
        await pending;
      } finally {
        holder.release();
      }
      expect(await ledgerInvariants(database.db)).toEqual({
        nonZeroCurrencies: [],
        accountsNotMatchingEntries: 0,
        negativeMerchantBalances: 0,
      });
    });
  });
}
