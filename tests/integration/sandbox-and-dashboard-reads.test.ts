import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mineDueSandboxBlocks } from "@/lib/chain/sandbox/mine-blocks";
import { checkoutFingerprint } from "@/lib/checkout/checkout-fingerprint";
import { queryRows } from "@/lib/db/client";
import { chainTips, deposits } from "@/lib/db/schema";
import { inTransaction } from "@/lib/db/transaction";
import { merchantBalance, platformAccount } from "@/lib/ledger/accounts";
import { creditSandboxBalance } from "@/lib/ledger/credit-sandbox-balance";
import { postJournal } from "@/lib/ledger/post-journal";
import { volumeByDay } from "@/lib/ledger/volume-by-day";
import { parseDecimal } from "@/lib/money";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { createFixedInvoice, pay } from "../support/invoices";
import { createTestMerchant } from "../support/merchants";

/** Reads with no API of their own: the dashboard's daily volume, the checkout's change detector, the block timer. */
describe(`sandbox and dashboard reads on ${testDriver}`, () => {
  let database: TestDatabase;
  let merchantId: number;
  let otherId: number;

  beforeAll(async () => {
    database = await createTestDatabase();
    merchantId = await createTestMerchant(database, "Reads");
    otherId = await createTestMerchant(database, "Elsewhere");
  });
  afterAll(() => database.drop());

  it("sums a merchant's money in and out per day and currency, exactly, and no one else's", async () => {
    const credit = (id: number, currency: string, amount: string) =>
      creditSandboxBalance(database.db, {
        merchantId: id,
        currency,
        amount: parseDecimal(amount),
        isSandbox: true,
      });
    await credit(merchantId, "BTC", "12.5");
    await credit(merchantId, "BTC", "0.00000001");
    await credit(merchantId, "ETH", "0.25");
    await credit(otherId, "BTC", "7");
    await inTransaction(database.db, (tx) =>
      postJournal(tx, {
        merchantId,
        kind: "test_debit",
        entries: [
          { account: merchantBalance(merchantId, "BTC"), amount: -parseDecimal("2.00000003") },
          { account: platformAccount("platform:chain", "BTC"), amount: parseDecimal("2.00000003") },
        ],
      }),
    );
    const [today] = await queryRows<{ day: string }>(
      database.db,
      sql`select to_char(now(), 'YYYY-MM-DD') as day`,
    );
    expect(await volumeByDay(database.db, merchantId)).toEqual([
      { day: today!.day, currency: "BTC", incoming: 1_250_000_001n, outgoing: 200_000_003n },
      { day: today!.day, currency: "ETH", incoming: 25_000_000n, outgoing: 0n },
    ]);
  });

  it("changes the checkout fingerprint when a payment arrives and when it gains a confirmation", async () => {
    const invoice = await createFixedInvoice(database.db, merchantId, "LTC");
    const token = invoice.invoice.token;
    expect(await checkoutFingerprint(database.db, "no-such-token")).toBeNull();
    const unpaid = await checkoutFingerprint(database.db, token);
    expect(unpaid).toMatch(/^created\||^pending\|/);
    expect(await checkoutFingerprint(database.db, token)).toBe(unpaid);

    await pay(database.db, invoice, "0.001");
    const [deposit] = await database.db.select().from(deposits).where(eq(deposits.transactionId, invoice.id));
    const seen = await checkoutFingerprint(database.db, token);
    expect(seen).not.toBe(unpaid);
    expect(seen!.endsWith(`|${deposit!.id}:0:seen`)).toBe(true);

    const [mined] = await mineDueSandboxBlocks(database.db, 0);
    expect(mined).toMatchObject({ currency: "LTC", blocks: 1, transactions: 1 });
    expect((await checkoutFingerprint(database.db, token))!.endsWith(`|${deposit!.id}:1:seen`)).toBe(true);
  });

  it("mines one block per interval on each currency with payments waiting, and none elsewhere", async () => {
    // The LTC payment above is still unconfirmed: LTC is waiting, and was mined a moment ago.
    expect(await mineDueSandboxBlocks(database.db, 3_600)).toEqual([]);
    await database.db
      .update(chainTips)
      .set({ minedAt: sql`now() - interval '2 hours'` })
      .where(eq(chainTips.currency, "LTC"));
    const mined = await mineDueSandboxBlocks(database.db, 3_600);
    expect(mined).toEqual([{ currency: "LTC", height: 2, blocks: 1, transactions: 0 }]);
    const tips = await database.db.select({ currency: chainTips.currency }).from(chainTips);
    expect(tips.map((t) => t.currency)).toEqual(["LTC"]);
  });
});
