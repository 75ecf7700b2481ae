import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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

  it("sums to zero per currency, with every balance equal to its entries", async () => {
    expect(await ledgerInvariants(database.db)).toEqual({
      nonZeroCurrencies: [],
      accountsNotMatchingEntries: 0,
      negativeMerchantBalances: 0,
    });
  });
});
