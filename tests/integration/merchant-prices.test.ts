import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { encode } from "next-auth/jwt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SessionRouteHandler } from "@/lib/api/with-session";
import { offeringOf } from "@/lib/chain/evm/evm-offering";
import { configureOffering } from "@/lib/currencies/offering";
import { registerDatabase, unregisterDatabase } from "@/lib/db/client";
import { users } from "@/lib/db/schema";
import { listPairs } from "@/lib/exchanges/list-pairs";
import { priceExchange } from "@/lib/exchanges/price-exchange";
import { priceInvoice } from "@/lib/invoices/price-invoice";
import { divide, formatAmount, parseDecimal, UNIT } from "@/lib/money";
import { INSTALLATION_PRICES, quote } from "@/lib/rates/rates";
import { priceWithdrawal } from "@/lib/withdrawals/price-withdrawal";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { pricingWith } from "../support/invoices";
import { createTestMerchant } from "../support/merchants";

// The route handlers read the process's configuration: a session secret and a master key of this test's own.
process.env.NEXTAUTH_SECRET = randomBytes(32).toString("hex");
process.env.KASSA_MASTER_KEY = randomBytes(32).toString("hex");

const SPREAD_PPM = 5_000;
const EUR = parseDecimal("1.08");
const INSTALLATION_BTC = parseDecimal("65000");
const EDITED_BTC = parseDecimal("30000");
const ONE_THOUSAND = parseDecimal("1000");

/**
 * By hand, from the USD prices and the 0.5% spread (not through lib/rates): the BTC bought with
 * 1000 EUR (rounded down), and the BTC a customer owes for a 1000 EUR invoice (rounded up).
 */
const btcFor = (eur: bigint, btcPrice: bigint) => divide(eur * EUR * 995_000n, btcPrice * 1_000_000n, "down");
const btcDue = (eur: bigint, btcPrice: bigint) => divide(eur * EUR * 1_000_000n, btcPrice * 995_000n, "up");

/**
 * Sandbox prices are per merchant: one merchant's developer editing BTC in the sandbox panel moves
 * that merchant's conversions, every kind of them, and nobody else's.
 */
describe(`sandbox prices per merchant on ${testDriver}`, () => {
  let database: TestDatabase;
  let rates: { GET: SessionRouteHandler; POST: SessionRouteHandler };
  const shops: { id: number; cookie: string }[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    registerDatabase(database);
    for (const name of ["Edits", "Bystander"]) {
      const merchantId = await createTestMerchant(database, name);
      const [user] = await database.db.select().from(users).where(eq(users.merchantId, merchantId));
      const token = { sub: String(user!.id), email: user!.email, merchantId, sessionVersion: 0 };
      const value = await encode({ token, secret: process.env.NEXTAUTH_SECRET! });
      shops.push({ id: merchantId, cookie: `next-auth.session-token=${value}` });
    }
    rates = await import("@/app/api/dashboard/sandbox/rates/route");
  });
  afterAll(async () => {
    unregisterDatabase();
    await database.drop();
  });

  async function call(handler: SessionRouteHandler, cookie: string, body?: unknown) {
    const response = await handler(
      new Request("http://kassa.test/api/dashboard/sandbox/rates", {
        method: body === undefined ? "GET" : "POST",
        headers: {
          host: "kassa.test",
          origin: "http://kassa.test",
          cookie,
          "content-type": "application/json",
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
      { params: Promise.resolve({}) },
    );
    return { status: response.status, body: await response.json() };
  }
  const btcRow = async (cookie: string) =>
    (await call(rates.GET, cookie)).body.rates.find((r: { currency: string }) => r.currency === "BTC");

  /** Every conversion a merchant makes between EUR and BTC, priced now. */
  async function conversions(merchantId: number) {
    const [pair] = await listPairs(database.db, {
      merchantId,
      from: "BTC",
      to: "EUR",
      pricing: pricingWith(SPREAD_PPM),
    });
    const invoice = await priceInvoice(database.db, {
      merchantId,
      invoiceCurrency: "EUR",
      amount: ONE_THOUSAND,
      payCurrency: "BTC",
      pricing: pricingWith(SPREAD_PPM),
      field: "currency",
    });
    const exchange = await priceExchange(database.db, {
      merchantId,
      senderCurrency: "EUR",
      receiverCurrency: "BTC",
      senderAmount: ONE_THOUSAND,
      pricing: pricingWith(SPREAD_PPM),
    });
    const withdrawal = await priceWithdrawal(database.db, {
      merchantId,
      source: "EUR",
      target: "BTC",
      amount: ONE_THOUSAND,
      pricing: pricingWith(SPREAD_PPM),
    });
    return {
      pair: pair!.rate_to,
      invoice: invoice.senderAmount,
      exchange: exchange.receiverAmount,
      sent: withdrawal.sent,
    };
  }
  const expected = (btcPrice: bigint) => ({
    pair: formatAmount(divide(btcPrice * 995_000n * 100_000_000n, EUR * 1_000_000n, "down")),
    invoice: btcDue(ONE_THOUSAND, btcPrice),
    exchange: btcFor(ONE_THOUSAND, btcPrice),
    sent: btcFor(ONE_THOUSAND, btcPrice),
  });

  it("moves the editing merchant's conversions only, through the dashboard route", async () => {
    const [edits, bystander] = shops as [(typeof shops)[number], (typeof shops)[number]];
    expect(await conversions(edits.id)).toEqual(expected(INSTALLATION_BTC));

    const posted = await call(rates.POST, edits.cookie, { currency: "BTC", usd_price: "30000" });
    expect(posted).toEqual({ status: 200, body: { currency: "BTC", usd_price: "30000.00000000" } });

    expect(await btcRow(edits.cookie)).toMatchObject({ usd_price: "30000.00000000", is_own: true });
    expect(await btcRow(bystander.cookie)).toMatchObject({ usd_price: "65000.00000000", is_own: false });
    expect(await conversions(edits.id)).toEqual(expected(EDITED_BTC));
    expect(await conversions(bystander.id)).toEqual(expected(INSTALLATION_BTC));
    // The installation's table is untouched: a merchant without prices of their own still reads it.
    const installation = await quote(database.db, {
      merchantId: INSTALLATION_PRICES,
      from: "BTC",
      to: "USD",
      spreadPpm: 0,
    });
    expect(installation.midRate).toEqual(
      (await quote(database.db, { merchantId: bystander.id, from: "BTC", to: "USD", spreadPpm: 0 })).midRate,
    );
  });

  it("lets the other merchant set their own price without touching the first one's", async () => {
    const [edits, bystander] = shops as [(typeof shops)[number], (typeof shops)[number]];
    expect((await call(rates.POST, bystander.cookie, { currency: "BTC", usd_price: "90000" })).status).toBe(
      200,
    );
    expect(await btcRow(edits.cookie)).toMatchObject({ usd_price: "30000.00000000", is_own: true });
    expect(await conversions(edits.id)).toEqual(expected(EDITED_BTC));
    expect(await conversions(bystander.id)).toEqual(expected(parseDecimal("90000")));
  });

  it("judges a price's bounds against the merchant's own prices", async () => {
    const [edits, bystander] = shops as [(typeof shops)[number], (typeof shops)[number]];
    // 0.00000001 USD for DOGE is 9·10^12 below the bystander's BTC (allowed); the first merchant then
    // cannot raise BTC past 10^14 times it, but the bystander's DOGE is not the first merchant's.
    expect(
      (await call(rates.POST, bystander.cookie, { currency: "DOGE", usd_price: "0.00000001" })).status,
    ).toBe(200);
    expect((await call(rates.POST, edits.cookie, { currency: "BTC", usd_price: "2000000" })).status).toBe(
      200,
    );
    const refused = await call(rates.POST, bystander.cookie, { currency: "BTC", usd_price: "2000000" });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain("too far from DOGE");
  });

  it("ignores a merchant's own prices in production mode: they were sandbox prices", async () => {
    const [edits] = shops as [(typeof shops)[number]];
    configureOffering({ ...offeringOf({ mode: "production", evm: undefined }, null) });
    try {
      // Production offers no simulated BTC to convert into; the price itself is what is checked.
      const atProduction = await quote(database.db, {
        merchantId: edits.id,
        from: "BTC",
        to: "USD",
        spreadPpm: 0,
      });
      expect(atProduction.midRate).toEqual(
        (await quote(database.db, { merchantId: INSTALLATION_PRICES, from: "BTC", to: "USD", spreadPpm: 0 }))
          .midRate,
      );
      expect(atProduction.midRate.numerator * UNIT).toBe(INSTALLATION_BTC * atProduction.midRate.denominator);
    } finally {
      configureOffering(undefined);
    }
  });
});
