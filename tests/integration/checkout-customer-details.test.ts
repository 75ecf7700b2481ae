import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as currencyRoute } from "@/app/api/checkout/[token]/currency/route";
import { POST as customerRoute } from "@/app/api/checkout/[token]/customer/route";
import { GET as checkoutRoute } from "@/app/api/checkout/[token]/route";
import { cancelInvoiceById } from "@/app/api/dashboard/invoices/[id]/cancel/cancel-by-id";
import { POST as dashboardInvoiceRoute } from "@/app/api/dashboard/invoices/route";
import { POST as createInvoiceRoute } from "@/app/api/v2/invoices/create/route";
import { requestContextStorage } from "@/lib/api/request-context";
import { SecretBox } from "@/lib/crypto/secret-box";
import { registerDatabase, unregisterDatabase } from "@/lib/db/client";
import { customers, invoices, transactions } from "@/lib/db/schema";
import { expireInvoiceNow } from "@/lib/invoices/expire-invoice-now";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { invoiceBody, makeSigningShop, type SigningShop } from "../support/signing-shop";

process.env.NEXTAUTH_SECRET = randomBytes(32).toString("hex");
const masterKey = randomBytes(32);

type Answer = { status: number; body: Record<string, unknown> };

/**
 * The customer's own details on the checkout (POST /api/checkout/<token>/customer), for a dashboard
 * invoice made with only an amount, a currency and a title: through the real route handlers, and
 * stored as POST /api/v2/invoices/create stores the same details (compared with an invoice created
 * through the API, row against row).
 */
describe(`checkout customer details on ${testDriver}`, () => {
  let database: TestDatabase;
  let shop: SigningShop;

  beforeAll(async () => {
    process.env.KASSA_MASTER_KEY = masterKey.toString("hex");
    process.env.KASSA_MODE = "sandbox";
    database = await createTestDatabase();
    registerDatabase(database);
    shop = await makeSigningShop(database, new SecretBox(masterKey), {
      name: "Details",
      callbackUrl: "http://127.0.0.1:9/callbacks",
    });
  });
  afterAll(async () => {
    unregisterDatabase();
    await database.drop();
  });

  /** A checkout request as the page sends it; `raw` sends the bytes as they are (not JSON-encoded). */
  async function checkout(
    route: typeof customerRoute,
    token: string,
    input: { method?: string; body?: unknown; raw?: string } = {},
  ): Promise<Answer> {
    const method = input.method ?? "POST";
    const body = input.raw ?? (input.body === undefined ? undefined : JSON.stringify(input.body));
    const response = await requestContextStorage().run(
      { requestId: "details", peerAddress: "198.51.100.7" },
      () =>
        route(
          new Request(`http://kassa.test/api/checkout/${token}/x`, {
            method,
            headers: { "content-type": "application/json" },
            body: method === "GET" ? undefined : body,
          }),
          { params: Promise.resolve({ token }) },
        ),
    );
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  /** An invoice made on the dashboard's form with only the three fields it requires. */
  async function shortInvoice(extra: Record<string, unknown> = {}): Promise<{ id: number; token: string }> {
    const answer = await shop.dashboard(dashboardInvoiceRoute, {
      body: { title: "Three fields", amount: "25", currency: "EUR", ...extra },
    });
    expect(answer.status).toBe(201);
    return { id: answer.body.id as number, token: answer.body.token as string };
  }

  /** The stored row of an invoice, as the database has it. */
  async function stored(id: number) {
    const [row] = await database.db
      .select({
        senderType: invoices.senderType,
        senderData: invoices.senderData,
        emailUser: invoices.emailUser,
        urlSuccess: invoices.urlSuccess,
        reference: transactions.endUserReference,
        foreignId: transactions.foreignId,
      })
      .from(invoices)
      .innerJoin(transactions, eq(transactions.id, invoices.transactionId))
      .where(eq(invoices.transactionId, id));
    return row!;
  }

  /** The same details sent to POST /api/v2/invoices/create: what the API path stores for them. */
  async function storedByApi(sender: Record<string, unknown>) {
    const created = await shop.signed(createInvoiceRoute, shop.defaultKey, { ...invoiceBody(), ...sender });
    expect(created.status).toBe(201);
    return stored(created.data.id as number);
  }

  it("creates an invoice from an amount, a currency and a title, and asks the customer before any address", async () => {
    const invoice = await shortInvoice();
    expect(await stored(invoice.id)).toMatchObject({
      senderType: null,
      senderData: null,
      emailUser: null,
      urlSuccess: null,
      reference: null,
      foreignId: expect.stringMatching(/^inv-\d{8}-[0-9a-f]{8}$/),
    });
    const view = await checkout(checkoutRoute, invoice.token, { method: "GET" });
    expect(view.status).toBe(200);
    expect(view.body).toMatchObject({ needs_customer_details: true, address: null, currencies: [] });
    // No coin, hence no address, before the details: the currency endpoint refuses too.
    const early = await checkout(currencyRoute, invoice.token, { body: { currency: "LTC" } });
    expect(early.status).toBe(400);
    expect(early.body.errors).toHaveProperty("currency");
    expect((await stored(invoice.id)).senderType).toBeNull();
  });

  it("stores a person's details exactly as the API stores the same input, then offers the coins and the address", async () => {
    const sender = {
      sender_type: "natural",
      sender_data: {
        first_name: "  Grace ",
        last_name: "Hopper",
        date_of_birth: "1986-12-09",
        email: "grace@example.com",
      },
    };
    const invoice = await shortInvoice();
    const given = await checkout(customerRoute, invoice.token, { body: sender });
    expect(given.status).toBe(200);
    expect(given.body.needs_customer_details).toBe(false);
    expect((given.body.currencies as unknown[]).length).toBeGreaterThan(0);

    const viaCheckout = await stored(invoice.id);
    const viaApi = await storedByApi(sender);
    expect(viaCheckout.senderType).toBe("natural");
    expect(viaCheckout.senderType).toBe(viaApi.senderType);
    expect(viaCheckout.senderData).toEqual(viaApi.senderData);
    // Trimmed as the API trims, and nothing added: a literal check beside the comparison.
    expect(viaCheckout.senderData).toEqual({
      first_name: "Grace",
      last_name: "Hopper",
      date_of_birth: "1986-12-09",
      email: "grace@example.com",
    });

    const chosen = await checkout(currencyRoute, invoice.token, { body: { currency: "LTC" } });
    expect(chosen.status).toBe(200);
    expect(chosen.body.address).toEqual(expect.any(String));
  });

  it("stores a company's details as the API does, and a merchant-fixed coin shows its address once they are given", async () => {
    const sender = {
      sender_type: "legal",
      sender_data: { legal_name: "Analytical Engines Ltd", country_of_registration: "GBR" },
    };
    const invoice = await shortInvoice({ sender_currency: "LTC", timer: true });
    const before = await checkout(checkoutRoute, invoice.token, { method: "GET" });
    // Its address exists from creation (a timer invoice with a coin), but is not shown yet.
    expect(before.body).toMatchObject({ needs_customer_details: true, address: null, payment_uri: null });

    const given = await checkout(customerRoute, invoice.token, { body: sender });
    expect(given.status).toBe(200);
    expect(given.body.address).toEqual(expect.any(String));
    const viaCheckout = await stored(invoice.id);
    const viaApi = await storedByApi(sender);
    expect([viaCheckout.senderType, viaCheckout.senderData]).toEqual([viaApi.senderType, viaApi.senderData]);
  });

  it("shows no details step on an invoice created through the API with its details", async () => {
    const created = await shop.signed(createInvoiceRoute, shop.defaultKey, invoiceBody());
    const [row] = await database.db
      .select({ token: invoices.token })
      .from(invoices)
      .where(eq(invoices.transactionId, created.data.id as number));
    const view = await checkout(checkoutRoute, row!.token, { method: "GET" });
    expect(view.body.needs_customer_details).toBe(false);
    expect((view.body.currencies as unknown[]).length).toBeGreaterThan(0);
    const again = await checkout(customerRoute, row!.token, {
      body: {
        sender_type: "natural",
        sender_data: { first_name: "Eve", last_name: "Other", date_of_birth: "1990-01-01" },
      },
    });
    expect(again.status).toBe(409);
    expect((await stored(created.data.id as number)).senderData).toMatchObject({ first_name: "Ada" });
  });

  it("answers malformed and hostile input with 4xx and a message per field, storing nothing", async () => {
    const invoice = await shortInvoice();
    const cases: { body?: unknown; raw?: string; fields?: string[] }[] = [
      { body: {}, fields: ["sender_type"] },
      { body: { sender_type: "self" }, fields: ["sender_type"] },
      {
        body: { sender_type: "natural", sender_data: {} },
        fields: ["sender_data.first_name", "sender_data.last_name", "sender_data.date_of_birth"],
      },
      {
        body: {
          sender_type: "natural",
          sender_data: { first_name: "A", last_name: "B", date_of_birth: "1990-02-30", legal_name: "X" },
        },
        fields: ["sender_data.date_of_birth", "sender_data.legal_name"],
      },
      {
        body: { sender_type: "legal", sender_data: { legal_name: "X", country_of_registration: "XXX" } },
        fields: ["sender_data.country_of_registration"],
      },
      {
        body: {
          sender_type: "natural",
          sender_data: { first_name: "x".repeat(101), last_name: "B", date_of_birth: "2999-01-01" },
        },
        fields: ["sender_data.first_name", "sender_data.date_of_birth"],
      },
      { body: { sender_type: "natural", sender_data: "Ada Lovelace" }, fields: ["sender_data"] },
      {
        body: {
          sender_type: "natural",
          sender_data: { first_name: "A", last_name: "B", date_of_birth: "1990-01-01", email: "not mail" },
        },
        fields: ["sender_data.email"],
      },
      { body: [1, 2] },
      { raw: "first_name=Ada" },
      { raw: '{"sender_type": "natural", "sender_data": {' },
    ];
    for (const input of cases) {
      const answer = await checkout(customerRoute, invoice.token, input);
      expect(answer.status, JSON.stringify(input)).toBe(400);
      if (input.fields)
        expect(Object.keys(answer.body.errors as object).sort(), JSON.stringify(input)).toEqual(
          [...input.fields].sort(),
        );
    }
    // A NUL inside a name: text PostgreSQL cannot store, still the client's fault.
    const nul = await checkout(customerRoute, invoice.token, {
      body: {
        sender_type: "natural",
        sender_data: { first_name: "A\u0000", last_name: "B", date_of_birth: "1990-01-01" },
      },
    });
    expect(nul.status).toBeGreaterThanOrEqual(400);
    expect(nul.status).toBeLessThan(500);
    expect((await checkout(customerRoute, "no-such-token", { body: {} })).status).toBe(400);
    const unknown = await checkout(customerRoute, "no-such-token", {
      body: { sender_type: "legal", sender_data: { legal_name: "X", country_of_registration: "DEU" } },
    });
    expect(unknown.status).toBe(404);
    expect((await stored(invoice.id)).senderType).toBeNull();
  });

  it("refuses to overwrite details once given", async () => {
    const invoice = await shortInvoice();
    const first = {
      sender_type: "legal",
      sender_data: { legal_name: "First Ltd", country_of_registration: "DEU" },
    };
    expect((await checkout(customerRoute, invoice.token, { body: first })).status).toBe(200);
    const second = await checkout(customerRoute, invoice.token, {
      body: {
        sender_type: "natural",
        sender_data: { first_name: "Mallory", last_name: "M", date_of_birth: "1980-01-01" },
      },
    });
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({ code: "conflict" });
    expect(await stored(invoice.id)).toMatchObject({ senderType: "legal", senderData: first.sender_data });
  });

  it("refuses a cancelled or expired invoice", async () => {
    const person = {
      sender_type: "natural",
      sender_data: { first_name: "Ada", last_name: "L", date_of_birth: "1990-12-10" },
    };
    const cancelled = await shortInvoice();
    await cancelInvoiceById(database.db, { merchantId: shop.merchantId, id: cancelled.id });
    const late = await checkout(customerRoute, cancelled.token, { body: person });
    expect(late.status).toBe(409);
    expect(late.body.error).toBe("This invoice can no longer be paid.");
    const expired = await shortInvoice({ timer: true });
    await expireInvoiceNow(database.db, { merchantId: shop.merchantId, invoiceId: expired.id });
    expect((await checkout(customerRoute, expired.token, { body: person })).status).toBe(409);
    expect((await stored(cancelled.id)).senderType).toBeNull();
    expect((await stored(expired.id)).senderType).toBeNull();
  });

  it("checks the details against the customer the merchant's reference already names, as the API does", async () => {
    await storedByApi({
      end_user_reference: "cust-known",
      sender_type: "natural",
      sender_data: { first_name: "Ada", last_name: "Lovelace", date_of_birth: "1990-12-10" },
    });
    const invoice = await shortInvoice({ end_user_reference: "cust-known" });
    const other = await checkout(customerRoute, invoice.token, {
      body: {
        sender_type: "natural",
        sender_data: { first_name: "Ada", last_name: "Lovelace", date_of_birth: "1970-01-01" },
      },
    });
    expect(other.status).toBe(400);
    expect(other.body.errors).toHaveProperty("sender_data.date_of_birth");
    expect((await stored(invoice.id)).senderType).toBeNull();
    const same = await checkout(customerRoute, invoice.token, {
      body: {
        sender_type: "natural",
        sender_data: { first_name: "Ada", last_name: "Lovelace", date_of_birth: "1990-12-10" },
      },
    });
    expect(same.status).toBe(200);
    const recorded = await database.db
      .select()
      .from(customers)
      .where(eq(customers.merchantId, shop.merchantId));
    expect(recorded.filter((c) => c.endUserReference === "cust-known")).toHaveLength(1);
  });
});
