import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET, POST } from "@/app/api/refund/[token]/route";
import { POST as formPost } from "@/app/refund/[token]/claim/route";
import { registerDatabase, unregisterDatabase } from "@/lib/db/client";
import { users, withdrawals } from "@/lib/db/schema";
import { creditSandboxBalance } from "@/lib/ledger/credit-sandbox-balance";
import { parseDecimal } from "@/lib/money";
import { issueRefund } from "@/lib/refunds/issue-refund";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { confirm, createFixedInvoice, pay } from "../support/invoices";
import { createTestMerchant } from "../support/merchants";

const BTC_ADDRESS = "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu";

/** The refund page's endpoints: hostile input answers 4xx, never 5xx; a good claim sends once. */
describe(`refund page endpoints on ${testDriver}`, () => {
  let database: TestDatabase;
  let merchantId: number;

  beforeAll(async () => {
    process.env.KASSA_MASTER_KEY ??= randomBytes(32).toString("hex");
    process.env.KASSA_MODE ??= "sandbox";
    database = await createTestDatabase();
    registerDatabase(database);
    merchantId = await createTestMerchant(database, "Page Shop");
    await creditSandboxBalance(database.db, {
      merchantId,
      currency: "EUR",
      amount: parseDecimal("1000"),
      isSandbox: true,
    });
  });
  afterAll(async () => {
    unregisterDatabase();
    await database.drop();
  });

  async function offered() {
    const invoice = await createFixedInvoice(database.db, merchantId, "BTC", { timer: false });
    await pay(database.db, invoice, invoice.invoice.senderAmount! + 20_000n);
    await confirm(database.db, "BTC");
    const [owner] = await database.db.select().from(users).where(eq(users.merchantId, merchantId));
    const { token } = await issueRefund(database.db, {
      merchantId,
      invoiceId: invoice.id,
      terms: { amount: { kind: "full" }, rateBasis: "payment", feePaidBy: "merchant" },
      actor: { actor: { kind: "user", userId: owner!.id, email: owner!.email } },
      box: database.box,
    });
    return { token, invoiceId: invoice.id };
  }

  const api = (token: string, body?: string) =>
    (body === undefined ? GET : POST)(
      new Request(`http://kassa.test/api/refund/${encodeURIComponent(token)}`, {
        method: body === undefined ? "GET" : "POST",
        headers: { "content-type": "application/json" },
        body,
      }),
      { params: Promise.resolve({ token }) },
    );

  const form = (token: string, fields: Record<string, string>) =>
    formPost(
      new Request(`http://kassa.test/refund/${encodeURIComponent(token)}/claim`, {
        method: "POST",
        body: new URLSearchParams(fields),
      }),
      { params: Promise.resolve({ token }) },
    );

  it("answers hostile input with 4xx and a good claim with the payout under way, once", async () => {
    const { token, invoiceId } = await offered();
    const view = await api(token);
    expect(view.status).toBe(200);
    expect(await view.json()).toMatchObject({ status: "offered", currency: "BTC", amount: "0.0002" });

    for (const [path, body, status] of [
      ["unknown", JSON.stringify({ currency: "BTC", address: BTC_ADDRESS }), 404],
      ["nul\u0000token", JSON.stringify({ currency: "BTC", address: BTC_ADDRESS }), 404],
      [token, "not json", 400],
      [token, "[]", 400],
      [token, JSON.stringify({ currency: 5, address: [BTC_ADDRESS] }), 400],
      [token, JSON.stringify({ currency: "BTC", address: "x".repeat(5000) }), 400],
      [token, JSON.stringify({ currency: "BTC", address: "bc1\u0000q" }), 400],
      [token, JSON.stringify({ currency: "DOGE", address: BTC_ADDRESS }), 400],
      [
        token,
        JSON.stringify({ currency: "BTC", address: "ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh" }),
        400,
      ],
    ] as const) {
      const response = await api(path, body);
      expect([path.slice(0, 8), body.slice(0, 40), response.status]).toEqual([
        path.slice(0, 8),
        body.slice(0, 40),
        status,
      ]);
    }
    const bad = await (
      await api(token, JSON.stringify({ currency: "BTC", address: "bc1qnotanaddress" }))
    ).json();
    expect(Object.keys(bad.errors)).toEqual(["address"]);
    expect((await api("unknown")).status).toBe(404);

    const claimed = await api(token, JSON.stringify({ currency: "btc", address: ` ${BTC_ADDRESS} ` }));
    expect(claimed.status).toBe(200);
    expect(await claimed.json()).toMatchObject({
      status: "claimed",
      claim: { currency: "BTC", address: BTC_ADDRESS },
      payout: { amount: "0.0002", currency: "BTC" },
    });
    const again = await api(token, JSON.stringify({ currency: "BTC", address: BTC_ADDRESS }));
    expect(again.status).toBe(409);
    const payouts = await database.db.select().from(withdrawals).where(eq(withdrawals.refundOf, invoiceId));
    expect(payouts).toHaveLength(1);
  });

  it("answers the form without JavaScript with a redirect that names the problem by code", async () => {
    const { token, invoiceId } = await offered();
    const page = `/refund/${encodeURIComponent(token)}`;
    const location = async (fields: Record<string, string>) => {
      const response = await form(token, fields);
      expect(response.status).toBe(303);
      return response.headers.get("location");
    };
    expect(await location({ currency: "BTC", address: "" })).toBe(`${page}?error=address`);
    expect(await location({ currency: "BTC", address: "bc1qnotanaddress" })).toBe(`${page}?error=address`);
    expect(await location({ currency: "DOGE", address: BTC_ADDRESS })).toBe(`${page}?error=currency`);
    expect(await location({ currency: "BTC", address: BTC_ADDRESS })).toBe(page);
    expect(await location({ currency: "BTC", address: BTC_ADDRESS })).toBe(`${page}?error=closed`);
    const payouts = await database.db.select().from(withdrawals).where(eq(withdrawals.refundOf, invoiceId));
    expect(payouts).toHaveLength(1);
    const unknown = await form("unknown", { currency: "BTC", address: BTC_ADDRESS });
    expect([unknown.status, unknown.headers.get("location")]).toEqual([303, "/refund/unknown"]);
  });
});
