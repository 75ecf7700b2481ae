import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mineDueSandboxBlocks, mineSandboxBlocks } from "@/lib/chain/sandbox/mine-blocks";
import { checkoutView } from "@/lib/checkout/checkout-view";
import { queryRows } from "@/lib/db/client";
import { chainTips } from "@/lib/db/schema";
import { inTransaction } from "@/lib/db/transaction";
import { loadInvoiceById } from "@/lib/invoices/load-invoice";
import { claimJobs } from "@/lib/jobs/claim-jobs";
import { CHAIN_SCAN_QUEUE } from "@/lib/jobs/queues";
import { merchantBalance, platformAccount } from "@/lib/ledger/accounts";
import { creditSandboxBalance } from "@/lib/ledger/credit-sandbox-balance";
import { postJournal } from "@/lib/ledger/post-journal";
import { volumeByDay } from "@/lib/ledger/volume-by-day";
import { parseDecimal } from "@/lib/money";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { createFixedInvoice, pay, pricing } from "../support/invoices";
import { createTestMerchant } from "../support/merchants";

/** Reads with no API of their own: the dashboard's daily volume, a payment's confirmations on the checkout, the block timer. */
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

  it("shows the checkout a payment when it arrives and its confirmation when a sandbox block mines it", async () => {
    const invoice = await createFixedInvoice(database.db, merchantId, "LTC");
    const payments = async () => {
      const record = await loadInvoiceById(database.db, invoice.id);
      return (await checkoutView(database.db, record!, { pricing })).payments;
    };
    expect(await payments()).toEqual([]);

    await pay(database.db, invoice, "0.001");
    expect(await payments()).toMatchObject([{ amount: "0.00100000", currency: "LTC", confirmations: 0 }]);

    const [mined] = await mineDueSandboxBlocks(database.db, 0);
    expect(mined).toMatchObject({ currency: "LTC", blocks: 1, transactions: 1 });
    expect(await payments()).toMatchObject([{ confirmations: 1, is_confirmed: false }]);
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

  it("queues a new scan for blocks mined while the last scan runs, so none waits for the next block", async () => {
    const claim = () =>
      claimJobs({
        db: database.db,
        queues: [CHAIN_SCAN_QUEUE],
        limit: 10,
        workerId: "test",
        leaseSeconds: 60,
      });
    await claim(); // whatever earlier tests left
    await mineSandboxBlocks(database.db, { currency: "DOGE", count: 1 });
    const [running] = await claim(); // a scan starts, and reads the chain as it is now
    expect(running?.payload).toEqual({ currency: "DOGE" });
    await mineSandboxBlocks(database.db, { currency: "DOGE", count: 2 }); // meanwhile, two more blocks
    // Another scan is there to be claimed, while the first still holds its lease.
    expect((await claim()).map((job) => job.payload)).toEqual([{ currency: "DOGE" }]);
  });
});
