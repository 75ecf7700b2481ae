import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { maxPayout } from "@/app/api/dashboard/quote/payout-headroom";
import { creditSandboxBalance } from "@/lib/ledger/credit-sandbox-balance";
import { readBalance } from "@/lib/ledger/read-balance";
import { parseDecimal } from "@/lib/money";
import { priceWithdrawal } from "@/lib/withdrawals/price-withdrawal";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { pricingWith } from "../support/invoices";
import { createTestMerchant } from "../support/merchants";

/** The payout form's guardrails: the available balance, and "Max", the largest payout whose fees fit. */
describe(`payout headroom on ${testDriver}`, () => {
  let database: TestDatabase;
  let merchantId: number;
  const spreadPpm = 5_000;

  beforeAll(async () => {
    database = await createTestDatabase();
    merchantId = await createTestMerchant(database, "Payout Shop");
    const credit = (currency: string, amount: string) =>
      creditSandboxBalance(database.db, {
        merchantId,
        currency,
        amount: parseDecimal(amount),
        isSandbox: true,
      });
    await credit("BTC", "1");
    await credit("EUR", "1000");
    await credit("DOGE", "0.5");
  });
  afterAll(() => database.drop());

  it("gives the balance, zero where the merchant has none", async () => {
    expect(await readBalance(database.db, { merchantId, currency: "BTC" })).toBe(parseDecimal("1"));
    expect(await readBalance(database.db, { merchantId, currency: "ETH" })).toBe(0n);
  });

  it("fills Max with the balance less the network fee for a same-currency payout (BTC's fee is 0.00002)", async () => {
    const { available, price } = await maxPayout(database.db, {
      merchantId,
      source: "BTC",
      target: "BTC",
      pricing: pricingWith(spreadPpm),
    });
    expect(available).toBe(parseDecimal("1"));
    expect(price!.principal).toBe(parseDecimal("0.99998"));
    expect(price!.totalDebit).toBe(parseDecimal("1"));
  });

  it("finds the largest converted payout whose 1% fee and network fee fit: one smallest unit more does not", async () => {
    const { price } = await maxPayout(database.db, {
      merchantId,
      source: "EUR",
      target: "BTC",
      pricing: pricingWith(spreadPpm),
    });
    const balance = parseDecimal("1000");
    expect(price!.totalDebit).toBeLessThanOrEqual(balance);
    // Independently: principal + 1% (rounded up) + the network fee in EUR equals the debit.
    expect(price!.totalDebit).toBe(price!.principal + (price!.principal + 99n) / 100n + price!.networkFee);
    const oneMore = await priceWithdrawal(database.db, {
      merchantId,
      source: "EUR",
      target: "BTC",
      amount: price!.principal + 1n,
      pricing: pricingWith(spreadPpm),
    });
    expect(oneMore.totalDebit).toBeGreaterThan(balance);
  });

  it("offers no Max when the balance does not cover the network fee (DOGE's is 1)", async () => {
    const { available, price } = await maxPayout(database.db, {
      merchantId,
      source: "DOGE",
      target: "DOGE",
      pricing: pricingWith(spreadPpm),
    });
    expect(available).toBe(parseDecimal("0.5"));
    expect(price).toBeNull();
  });
});
