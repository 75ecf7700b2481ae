import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inTransaction } from "@/lib/db/transaction";
import { merchantBalance, platformAccount } from "@/lib/ledger/accounts";
import { creditSandboxBalance } from "@/lib/ledger/credit-sandbox-balance";
import { postJournal } from "@/lib/ledger/post-journal";
import { valueDailyVolume } from "@/lib/ledger/value-daily-volume";
import { parseDecimal } from "@/lib/money";
import { INSTALLATION_PRICES, setUsdPrice } from "@/lib/rates/rates";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { createTestMerchant } from "../support/merchants";

/** The overview chart's figures: every currency valued in USD, summed exactly, rounded down once per day. */
describe(`overview volume in one display currency on ${testDriver}`, () => {
  let database: TestDatabase;
  let merchantId: number;

  beforeAll(async () => {
    database = await createTestDatabase();
    merchantId = await createTestMerchant(database, "Chart");
    await setUsdPrice(database.db, {
      merchantId: INSTALLATION_PRICES,
      currency: "BTC",
      price: parseDecimal("50000.123"),
    });
    await setUsdPrice(database.db, {
      merchantId: INSTALLATION_PRICES,
      currency: "ETH",
      price: parseDecimal("2000"),
    });
  });
  afterAll(() => database.drop());

  it("gives 14 UTC days ending today, with today's in, out and net worked out by hand", async () => {
    const credit = (currency: string, amount: string) =>
      creditSandboxBalance(database.db, {
        merchantId,
        currency,
        amount: parseDecimal(amount),
        isSandbox: true,
      });
    await credit("BTC", "0.5");
    // 0.00002 USD on its own: it only shows because the day is summed before it is rounded.
    await credit("ETH", "0.00000001");
    await credit("ETH", "0.00000004");
    await inTransaction(database.db, (tx) =>
      postJournal(tx, {
        merchantId,
        kind: "test_debit",
        entries: [
          { account: merchantBalance(merchantId, "BTC"), amount: -parseDecimal("0.1") },
          { account: platformAccount("platform:chain", "BTC"), amount: parseDecimal("0.1") },
        ],
      }),
    );
    const now = new Date();
    const volume = await valueDailyVolume(database.db, { merchantId, currency: "USD", minorUnit: 2, now });
    expect(volume.currency).toBe("USD");
    expect(volume.unpriced).toEqual([]);
    expect(volume.days).toHaveLength(14);
    const today = now.toISOString().slice(0, 10);
    const thirteenDaysAgo = new Date(now.getTime() - 13 * 86_400_000).toISOString().slice(0, 10);
    expect(volume.days[0]!.day).toBe(thirteenDaysAgo);
    // In: 0.5 × 50000.123 + 0.00000005 × 2000 = 25000.0615 + 0.0001 = 25000.0616 → 25000.06 (down).
    // Out: 0.1 × 50000.123 = 5000.0123 → 5000.01. Net: 25000.06 − 5000.01 = 20000.05.
    expect(volume.days.at(-1)).toEqual({
      day: today,
      incoming: parseDecimal("25000.06"),
      outgoing: parseDecimal("5000.01"),
      net: parseDecimal("20000.05"),
    });
    for (const day of volume.days.slice(0, -1)) {
      expect(day).toMatchObject({ incoming: 0n, outgoing: 0n, net: 0n });
    }
  });
});
