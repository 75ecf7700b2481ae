import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "@/lib/db/client";
import { ledgerEntries } from "@/lib/db/schema";
import { inTransaction } from "@/lib/db/transaction";
import { merchantBalance, platformAccount } from "@/lib/ledger/accounts";
import { creditSandboxBalance } from "@/lib/ledger/credit-sandbox-balance";
import { listBalances } from "@/lib/ledger/list-balances";
import { InsufficientFundsError, postJournal, UnbalancedJournalError } from "@/lib/ledger/post-journal";
import { createMerchant } from "@/lib/merchants/create-merchant";
import { parseDecimal } from "@/lib/money";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { ledgerInvariants } from "../support/ledger";

describe(`ledger on ${testDriver}`, () => {
  let database: TestDatabase;
  let merchantId: number;

  const balanceOf = async (currency: string) =>
    (await listBalances(database.db, merchantId)).find((b) => b.currency === currency)!.balance;

  const debit = (currency: string, amount: bigint) =>
    inTransaction(database.db, (tx) =>
      postJournal(tx, {
        merchantId,
        kind: "test_debit",
        entries: [
          { account: merchantBalance(merchantId, currency), amount: -amount },
          { account: platformAccount("platform:chain", currency), amount },
        ],
      }),
    );

  beforeAll(async () => {
    database = await createTestDatabase();
    const created = await createMerchant(database.db, database.box, {
      name: "Ledger Shop",
      email: "ledger@example.com",
      password: "a long enough password",
    });
    merchantId = created.merchantId;
  });
  afterAll(() => database.drop());

  it("lists every currency with a zero balance for a new merchant", async () => {
    const balances = await listBalances(database.db, merchantId);
    expect(balances.length).toBe(12);
    expect(balances.every((b) => b.balance === 0n)).toBe(true);
  });

  it("credits the sandbox balance as a balanced journal", async () => {
    const result = await creditSandboxBalance(database.db, {
      merchantId,
      currency: "BTC",
      amount: parseDecimal("1.23456789"),
      isSandbox: true,
    });
    expect(result.balance).toBe(parseDecimal("1.23456789"));
    const entries = await database.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.journalId, result.journalId));
    expect(entries.map((e) => e.amount).sort()).toEqual([
      parseDecimal("-1.23456789"),
      parseDecimal("1.23456789"),
    ]);
  });

  it("refuses sandbox credits outside sandbox mode, and for unknown merchants", async () => {
    await expect(
      creditSandboxBalance(database.db, { merchantId, currency: "BTC", amount: 1n, isSandbox: false }),
    ).rejects.toMatchObject({ code: "not_found" });
    await expect(
      creditSandboxBalance(database.db, {
        merchantId: 999_999,
        currency: "BTC",
        amount: 1n,
        isSandbox: true,
      }),
    ).rejects.toMatchObject({ code: "not_found" });
  });

  it("refuses unbalanced journals before writing anything", async () => {
    await expect(
      inTransaction(database.db, (tx) =>
        postJournal(tx, {
          merchantId,
          kind: "broken",
          entries: [
            { account: merchantBalance(merchantId, "ETH"), amount: 5n },
            { account: platformAccount("platform:chain", "ETH"), amount: -4n },
          ],
        }),
      ),
    ).rejects.toBeInstanceOf(UnbalancedJournalError);
    expect(await balanceOf("ETH")).toBe(0n);
  });

  it("never lets a debit take a balance below zero", async () => {
    await expect(debit("BTC", parseDecimal("5"))).rejects.toBeInstanceOf(InsufficientFundsError);
    expect(await balanceOf("BTC")).toBe(parseDecimal("1.23456789"));
  });

  it("has a CHECK constraint behind the conditional update", async () => {
    await expect(
      database.db.execute(
        sql`update ledger_accounts set balance = -1 where merchant_id = ${merchantId} and currency = 'BTC'`,
      ),
    ).rejects.toMatchObject({ cause: expect.objectContaining({ code: "23514" }) });
  });

  it("keeps entries append-only", async () => {
    await expect(database.db.execute(sql`update ledger_entries set amount = amount * 2`)).rejects.toThrow();
    await expect(database.db.execute(sql`delete from ledger_entries`)).rejects.toThrow();
  });

  it("accepts exactly as many racing debits as the balance covers", async () => {
    await creditSandboxBalance(database.db, {
      merchantId,
      currency: "LTC",
      amount: parseDecimal("20"),
      isSandbox: true,
    });
    const attempts = await Promise.allSettled(
      Array.from({ length: 50 }, () => debit("LTC", parseDecimal("1"))),
    );
    const accepted = attempts.filter((a) => a.status === "fulfilled").length;
    const refused = attempts.filter((a) => a.status === "rejected");
    expect(accepted).toBe(20);
    expect(refused.every((r) => (r as PromiseRejectedResult).reason instanceof InsufficientFundsError)).toBe(
      true,
    );
    expect(await balanceOf("LTC")).toBe(0n);
  });

  describe("the posting function, called directly", () => {
    /** Calls kassa_post_journals() as the one-statement writes do, bypassing postJournal. */
    const post = (entries: [owner: number | null, kind: string, currency: string, amount: string][]) =>
      database.db.execute(
        sql`select kassa_post_journals(${JSON.stringify([
          {
            merchant_id: merchantId,
            kind: "direct",
            entries: entries.map(([owner, kind, currency, amount]) => ({
              merchant_id: owner,
              kind,
              currency,
              amount,
            })),
          },
        ])}::jsonb)`,
      );
    const counts = async () =>
      (
        await queryRows<{ journals: number; entries: number; accounts: number }>(
          database.db,
          sql`select (select count(*) from journals)::int as journals,
                     (select count(*) from ledger_entries)::int as entries,
                     (select count(*) from ledger_accounts)::int as accounts`,
        )
      )[0];
    const refusal = (code: string, message: RegExp) => ({
      cause: expect.objectContaining({ code, message: expect.stringMatching(message) }),
    });

    it("refuses an unbalanced journal, a zero entry, a lone entry and sub-unit amounts, writing nothing", async () => {
      const before = await counts();
      await expect(
        post([
          [merchantId, "balance", "ETH", "5"],
          [null, "platform:chain", "ETH", "-4"],
        ]),
      ).rejects.toMatchObject(refusal("KASSJ", /ETH sum to 1/));
      await expect(
        post([
          [merchantId, "balance", "ETH", "1"],
          [null, "platform:chain", "ETH", "-1"],
          [null, "platform:fees", "ETH", "0"],
        ]),
      ).rejects.toMatchObject(refusal("KASSJ", /cannot be zero/));
      await expect(post([[merchantId, "balance", "ETH", "1"]])).rejects.toMatchObject(
        refusal("KASSJ", /at least two entries/),
      );
      await expect(
        post([
          [merchantId, "balance", "ETH", "0.000000001"],
          [null, "platform:chain", "ETH", "-0.000000001"],
        ]),
      ).rejects.toMatchObject(refusal("KASSJ", /more than 8 decimal places/));
      // Balanced per currency, not in total: 1 ETH against 1 BTC is two unbalanced currencies.
      await expect(
        post([
          [merchantId, "balance", "ETH", "1"],
          [null, "platform:chain", "BTC", "-1"],
        ]),
      ).rejects.toMatchObject(refusal("KASSJ", /sum to/));
      expect(await counts()).toEqual(before);
      expect(await balanceOf("ETH")).toBe(0n);
    });

    it("refuses a debit the balance does not cover and writes nothing, not even the new account", async () => {
      const before = await counts();
      // This merchant has never held XRP: the account would be created by this very posting.
      await expect(
        post([
          [merchantId, "balance", "XRP", "-0.5"],
          [null, "platform:chain", "XRP", "0.5"],
        ]),
      ).rejects.toMatchObject({
        cause: expect.objectContaining({
          code: "KASSA",
          message: "insufficient funds",
          detail: "XRP 0.50000000",
        }),
      });
      expect(await counts()).toEqual(before);
    });

    it("creates accounts on first use and moves every balance by its entries", async () => {
      const before = await counts();
      await post([
        [null, "platform:sandbox_faucet", "TRX", "-3"],
        [merchantId, "balance", "TRX", "2.5"],
        [null, "platform:fees", "TRX", "0.5"],
      ]);
      const after = await counts();
      expect(after!.journals - before!.journals).toBe(1);
      expect(after!.entries - before!.entries).toBe(3);
      expect(await balanceOf("TRX")).toBe(parseDecimal("2.5"));
    });
  });

  it("sums to zero per currency, with every balance equal to its entries", async () => {
    expect(await ledgerInvariants(database.db)).toEqual({
      nonZeroCurrencies: [],
      accountsNotMatchingEntries: 0,
      negativeMerchantBalances: 0,
    });
  });
});
