import { createHmac, randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as checkoutRoute } from "@/app/api/checkout/[token]/route";
import { POST as exchangeCalculate } from "@/app/api/v2/exchange/calculate/route";
import { POST as createInvoiceRoute } from "@/app/api/v2/invoices/create/route";
import { POST as withdrawalRoute } from "@/app/api/v2/withdrawal/crypto/route";
import { requestContextStorage } from "@/lib/api/request-context";
import type { RouteHandler } from "@/lib/api/route-handler";
import { registerDatabase, unregisterDatabase } from "@/lib/db/client";
import { invoices, transactions, withdrawals } from "@/lib/db/schema";
import { creditSandboxBalance } from "@/lib/ledger/credit-sandbox-balance";
import { createMerchant } from "@/lib/merchants/create-merchant";
import { formatAmount } from "@/lib/money";
import { getSecretBox } from "@/lib/runtime";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";

// An installation configured away from the defaults (5,000 ppm, a 900 s lock): every path that
// prices must use these, read from the configuration, and no default of its own. Sandbox prices:
// BTC 65000 USD, EUR 1.08 USD (lib/rates/rates.ts DEFAULT_USD_PRICES).
const SPREAD = 12_345n;
const LOCK_SECONDS = 300;
const PPM = 1_000_000n;
const BTC_USD = 65_000n;
const EUR_USD_CENTS = 108n;
const BTC_ADDRESS = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq";

const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;

describe(`an installation's configured pricing, on ${testDriver}`, () => {
  let database: TestDatabase;
  let merchantId: number;
  let key: { key: string; secret: string };

  beforeAll(async () => {
    process.env.KASSA_MASTER_KEY = randomBytes(32).toString("hex");
    process.env.KASSA_MODE = "sandbox";
    process.env.KASSA_EXCHANGE_SPREAD_PPM = SPREAD.toString();
    process.env.KASSA_RATE_LOCK_SECONDS = String(LOCK_SECONDS);
    process.env.KASSA_PUBLIC_URL = "https://pay.example.test";
    database = await createTestDatabase();
    registerDatabase(database);
    const merchant = await createMerchant(database.db, getSecretBox(), {
      name: "Priced",
      email: `priced-${randomBytes(4).toString("hex")}@example.com`,
      password: "long password 1",
    });
    merchantId = merchant.merchantId;
    key = merchant.apiKey;
    await creditSandboxBalance(database.db, {
      merchantId,
      currency: "EUR",
      amount: 100_000n * 10n ** 8n,
      isSandbox: true,
    });
  });

  afterAll(async () => {
    unregisterDatabase();
    await database.drop();
  });

  async function call(
    route: RouteHandler,
    path: string,
    init: RequestInit,
    params: Record<string, string> = {},
  ) {
    const response = await requestContextStorage().run(
      { requestId: "test", peerAddress: "203.0.113.7" },
      () => route(new Request(`https://pay.example.test${path}`, init), { params: Promise.resolve(params) }),
    );
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  async function signed(route: RouteHandler, path: string, body: unknown, status = 200) {
    const raw = JSON.stringify(body);
    const answer = await call(route, path, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-processing-key": key.key,
        "x-processing-signature": createHmac("sha512", key.secret).update(raw).digest("hex"),
      },
      body: raw,
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(status);
    return answer.body.data as Record<string, unknown>;
  }

  it("converts an exchange at the mid rate less the configured spread", async () => {
    const quote = await signed(exchangeCalculate, "/api/v2/exchange/calculate", {
      sender_currency: "EUR",
      receiver_currency: "BTC",
      sender_amount: "1000",
    });
    // 1000 EUR = 1080 USD; in BTC at 65000 USD, less 12,345 ppm, rounded down to 10^-8.
    const received = (1000n * 10n ** 8n * EUR_USD_CENTS * (PPM - SPREAD)) / (100n * BTC_USD * PPM);
    expect(quote.receiver_amount).toBe(formatAmount(received));
  });

  it("prices an invoice with the configured spread and holds its rate for the configured lock", async () => {
    const foreignId = `priced-${randomBytes(4).toString("hex")}`;
    const created = await signed(
      createInvoiceRoute,
      "/api/v2/invoices/create",
      {
        timer: false,
        title: "Order",
        currency: "EUR",
        amount: "100",
        foreign_id: foreignId,
        sender_currency: "BTC",
        end_user_reference: "customer-1",
        url_success: "https://shop.example/paid",
        url_failed: "https://shop.example/failed",
        email_user: "customer@shop.example",
        sender_type: "natural",
        sender_data: { first_name: "Ada", last_name: "Lovelace", date_of_birth: "1990-12-10" },
      },
      201,
    );
    const [row] = await database.db
      .select({ invoice: invoices, token: invoices.token })
      .from(invoices)
      .innerJoin(transactions, eq(transactions.id, invoices.transactionId))
      .where(eq(transactions.foreignId, foreignId));
    expect(row!.invoice.spreadPpm).toBe(Number(SPREAD));
    // 100 EUR in BTC at 65000 × (1 − spread) / 1.08 EUR per BTC, rounded up to 10^-8.
    const due = ceilDiv(100n * 10n ** 8n * EUR_USD_CENTS * PPM, 100n * BTC_USD * (PPM - SPREAD));
    expect(row!.invoice.senderAmount).toBe(due);
    expect(created.sender_amount).toBe(formatAmount(due));

    const view = await call(
      checkoutRoute,
      `/api/checkout/${row!.token}`,
      { method: "GET" },
      { token: row!.token },
    );
    expect(view.status).toBe(200);
    expect(view.body.rate_lock_seconds).toBe(LOCK_SECONDS);
    const fixedAt = Math.floor(row!.invoice.fixedAt!.getTime() / 1000);
    expect(view.body.price_holds_until).toBe(fixedAt + LOCK_SECONDS);
  });

  it("converts a withdrawal with the configured spread and records it", async () => {
    const foreignId = `payout-${randomBytes(4).toString("hex")}`;
    const created = await signed(
      withdrawalRoute,
      "/api/v2/withdrawal/crypto",
      {
        currency: "EUR",
        convert_to: "BTC",
        amount: "500",
        address: BTC_ADDRESS,
        foreign_id: foreignId,
        end_user_reference: "payee-1",
        sender_type: "legal",
        sender_data: { legal_name: "Shop GmbH", country_of_registration: "DEU" },
        receiver_type: "self",
      },
      201,
    );
    // 500 EUR = 540 USD, in BTC at 65000 USD less 12,345 ppm, rounded down to 10^-8.
    const received = (500n * 10n ** 8n * EUR_USD_CENTS * (PPM - SPREAD)) / (100n * BTC_USD * PPM);
    expect(created.receiver_amount).toBe(formatAmount(received));
    const [row] = await database.db
      .select({ spreadPpm: withdrawals.spreadPpm })
      .from(withdrawals)
      .innerJoin(transactions, eq(transactions.id, withdrawals.transactionId))
      .where(eq(transactions.foreignId, foreignId));
    expect(row!.spreadPpm).toBe(Number(SPREAD));
  });
});
