import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as dashboardDeactivateRoute } from "@/app/api/dashboard/payment-links/[id]/deactivate/route";
import { POST as dashboardCreateRoute } from "@/app/api/dashboard/payment-links/route";
import { GET as linkViewRoute } from "@/app/api/link/[token]/route";
import { POST as startRoute } from "@/app/api/link/[token]/start/route";
import { POST as deactivateRoute } from "@/app/api/v2/payment-links/[id]/deactivate/route";
import { POST as createRoute } from "@/app/api/v2/payment-links/create/route";
import { POST as listRoute } from "@/app/api/v2/payment-links/list/route";
import { POST as transactionInfoRoute } from "@/app/api/v2/transactions/info/route";
import { POST as noScriptStartRoute } from "@/app/link/[token]/start/route";
import { requestContextStorage } from "@/lib/api/request-context";
import type { RouteHandler } from "@/lib/api/route-handler";
import { buildInvoiceCallback } from "@/lib/callbacks/build-invoice-callback";
import { SecretBox } from "@/lib/crypto/secret-box";
import { registerDatabase, unregisterDatabase } from "@/lib/db/client";
import { auditEntries, callbacks, invoices, paymentLinks, transactions } from "@/lib/db/schema";
import type { KassaError } from "@/lib/errors";
import { createInvoice } from "@/lib/invoices/create-invoice";
import { expireInvoiceNow } from "@/lib/invoices/expire-invoice-now";
import { fixInvoiceCurrency } from "@/lib/invoices/fix-invoice-currency";
import { loadInvoiceById } from "@/lib/invoices/load-invoice";
import { startPaymentLink } from "@/lib/payment-links/start-payment-link";
import { paymentLinkResponse, startPaymentLinkRequest } from "@/lib/schemas/payment-links";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { confirm, invoiceRequest, pay, settings, testKeys } from "../support/invoices";
import { hmac, makeSigningShop, type Pair, type SigningShop } from "../support/signing-shop";

process.env.NEXTAUTH_SECRET = randomBytes(32).toString("hex");
const masterKey = randomBytes(32);

type Answer = { status: number; body: Record<string, unknown> };

/** 10^-8 units of an 8-digit wire amount, read here on its own (not lib/money). */
const units = (wire: string) => {
  const [whole, fraction = ""] = wire.split(".");
  return BigInt(whole!) * 100_000_000n + BigInt(fraction.padEnd(8, "0"));
};

const ADA = {
  sender_type: "natural",
  sender_data: { first_name: "Ada", last_name: "Lovelace", date_of_birth: "1990-12-10" },
};
const ACME = {
  sender_type: "legal",
  sender_data: { legal_name: "Acme GmbH", country_of_registration: "DEU" },
};

/**
 * Payment links end to end through the real route handlers: the signed API (create, list,
 * deactivate, with every kind of bad input), the customer's public endpoints (a visit makes the
 * customer's own invoice), the uses a link counts and frees, two visits racing for the last use, the
 * money received against the invoices' own credited amounts, and the link's id in invoice callbacks.
 */
describe(`payment links on ${testDriver}`, () => {
  let database: TestDatabase;
  let shop: SigningShop;
  let other: SigningShop;

  beforeAll(async () => {
    process.env.KASSA_MASTER_KEY = masterKey.toString("hex");
    process.env.KASSA_MODE = "sandbox";
    database = await createTestDatabase();
    registerDatabase(database);
    const box = new SecretBox(masterKey);
    shop = await makeSigningShop(database, box, {
      name: "Links",
      callbackUrl: "http://127.0.0.1:9/callbacks",
    });
    other = await makeSigningShop(database, box, {
      name: "Elsewhere",
      callbackUrl: "http://127.0.0.1:9/other",
    });
  });
  afterAll(async () => {
    unregisterDatabase();
    await database.drop();
  });

  let peer = 0;
  /** A route called as a client at its own address (each call its own, so no per-address limit is met). */
  async function call(
    route: RouteHandler,
    input: {
      raw?: string;
      body?: unknown;
      method?: string;
      params?: Record<string, string>;
      pair?: Pair;
      headers?: Record<string, string>;
    },
  ): Promise<Answer> {
    const method = input.method ?? "POST";
    const raw = input.raw ?? (input.body === undefined ? "" : JSON.stringify(input.body));
    const headers: Record<string, string> = {
      host: "kassa.test",
      "content-type": "application/json",
      ...input.headers,
    };
    if (input.pair) {
      headers["x-processing-key"] = input.pair.key;
      headers["x-processing-signature"] = hmac(input.pair.secret, raw);
    }
    peer++;
    const response = await requestContextStorage().run(
      { requestId: `links-${peer}`, peerAddress: `198.51.${Math.floor(peer / 250)}.${peer % 250}` },
      () =>
        route(
          new Request("http://kassa.test/api/x", {
            method,
            headers,
            body: method === "GET" ? undefined : raw,
          }),
          { params: Promise.resolve(input.params ?? {}) },
        ),
    );
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
  }

  const create = (body: unknown, pair: Pair = shop.defaultKey) => call(createRoute, { body, pair });
  const list = (body: unknown = {}, pair: Pair = shop.defaultKey) => call(listRoute, { body, pair });
  const deactivate = (id: string | number, pair: Pair = shop.defaultKey) =>
    call(deactivateRoute, { body: {}, pair, params: { id: String(id) } });
  const view = (token: string) => call(linkViewRoute, { method: "GET", params: { token } });
  const start = (token: string, body: unknown) => call(startRoute, { body, params: { token } });

  type Link = { id: number; url: string; token: string } & Record<string, unknown>;
  /** A link made through the API; its token read from its URL. */
  async function newLink(body: Record<string, unknown>): Promise<Link> {
    const answer = await create({ title: "Concert ticket", currency: "EUR", ...body });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    const data = answer.body.data as Link;
    return { ...data, token: new URL(data.url).pathname.split("/").pop()! };
  }

  /** The stored invoice of a visit, with its transaction row. */
  async function storedInvoice(id: number) {
    const [row] = await database.db
      .select({ invoice: invoices, transaction: transactions })
      .from(invoices)
      .innerJoin(transactions, eq(transactions.id, invoices.transactionId))
      .where(eq(invoices.transactionId, id));
    return row!;
  }

  describe("the signed API", () => {
    it("creates a fixed-amount link and answers it as the OpenAPI document describes", async () => {
      const before = Date.now();
      const answer = await create({
        title: " Concert ticket ",
        description: "Row 5, seat 12",
        currency: "eur",
        amount: 25,
        max_uses: 100,
        url_success: "https://shop.example/thanks",
        url_failed: "https://shop.example/sorry",
        expires_at: "2099-12-31T23:59:59+01:00",
        sender_types: ["natural"],
      });
      expect(answer.status).toBe(201);
      const data = answer.body.data as Record<string, unknown>;
      expect(paymentLinkResponse.safeParse(data).success).toBe(true);
      expect(data).toMatchObject({
        title: "Concert ticket",
        description: "Row 5, seat 12",
        currency: "EUR",
        amount: "25.00000000",
        min_amount: null,
        max_amount: null,
        sender_types: ["natural"],
        url_success: "https://shop.example/thanks",
        url_failed: "https://shop.example/sorry",
        expires_at: "2099-12-31T22:59:59.000Z",
        max_uses: 100,
        status: "active",
        uses: 0,
        paid_invoices: 0,
        open_invoices: 0,
        received: "0.00000000",
        deactivated_at: null,
      });
      expect(data.url).toMatch(/^http:\/\/kassa\.test\/link\/[A-Za-z0-9_-]{24}$/);
      expect(Date.parse(String(data.created_at))).toBeGreaterThanOrEqual(before - 5_000);
      // Audited as the key that made it.
      const audit = await database.db
        .select()
        .from(auditEntries)
        .where(
          and(eq(auditEntries.merchantId, shop.merchantId), eq(auditEntries.action, "payment_link_created")),
        );
      expect(audit.map((entry) => entry.actor)).toContain(`API key ${shop.defaultKey.key}`);
    });

    it("creates an open-amount link with a range, optional nulls meaning absent", async () => {
      const answer = await create({
        title: "Donation",
        currency: "USDTE",
        min_amount: "10.5",
        max_amount: "1e3",
        description: null,
        expires_at: null,
      });
      expect(answer.status).toBe(201);
      expect(answer.body.data).toMatchObject({
        amount: null,
        min_amount: "10.50000000",
        max_amount: "1000.00000000",
        sender_types: ["natural", "legal"],
        description: null,
        expires_at: null,
        max_uses: null,
      });
    });

    it.each([
      ["amount with a range", { amount: "20", min_amount: "15" }, "min_amount"],
      ["a maximum under the minimum", { min_amount: "50", max_amount: "20" }, "max_amount"],
      ["a minimum under the currency's", { min_amount: "5" }, "min_amount"],
      ["a fixed amount under the currency's minimum", { amount: "9.99" }, "amount"],
      ["zero", { amount: 0 }, "amount"],
      ["a negative amount", { amount: "-25" }, "amount"],
      ["an amount that is not a number", { amount: "twenty" }, "amount"],
      ["an amount past the largest Kassa keeps", { amount: "1e40" }, "amount"],
      ["more decimals than the currency has", { currency: "USDTE", amount: "10.1234567" }, "amount"],
      ["an unknown currency", { currency: "XXX", amount: "25" }, "currency"],
      ["no currency", { currency: undefined, amount: "25" }, "currency"],
      ["a title over 50 characters", { title: "x".repeat(51), amount: "25" }, "title"],
      ["an empty title", { title: "   ", amount: "25" }, "title"],
      ["a description over 1000 characters", { description: "d".repeat(1001), amount: "25" }, "description"],
      ["an expiry in the past", { expires_at: "2020-01-01T00:00:00Z", amount: "25" }, "expires_at"],
      ["an expiry that is not a time", { expires_at: "tomorrow", amount: "25" }, "expires_at"],
      ["no uses", { max_uses: 0, amount: "25" }, "max_uses"],
      ["a fraction of a use", { max_uses: 1.5, amount: "25" }, "max_uses"],
      ["too many uses", { max_uses: 1_000_001, amount: "25" }, "max_uses"],
      ["uses as text", { max_uses: "many", amount: "25" }, "max_uses"],
      ["no payer types", { sender_types: [], amount: "25" }, "sender_types"],
      ["an unknown payer type", { sender_types: ["robot"], amount: "25" }, "sender_types.0"],
      ["a payer type twice", { sender_types: ["legal", "legal"], amount: "25" }, "sender_types"],
      ["a script as the return address", { url_success: "javascript:alert(1)", amount: "25" }, "url_success"],
      ["a relative return address", { url_failed: "/failed", amount: "25" }, "url_failed"],
    ])("refuses %s with a field error, storing nothing", async (_, fields, field) => {
      const before = await database.db.$count(paymentLinks);
      const answer = await create({ title: "Bad", currency: "EUR", ...fields });
      expect(answer.status).toBe(400);
      expect(Object.keys(answer.body.errors as object)).toContain(field);
      expect(await database.db.$count(paymentLinks)).toBe(before);
    });

    it("answers unsigned, wrongly signed, malformed and oversized requests with the API's 4xx", async () => {
      const body = JSON.stringify({ title: "T", currency: "EUR", amount: "25" });
      const unsigned = await call(createRoute, { raw: body });
      expect([unsigned.status, unsigned.body.code]).toEqual([403, "required_header_key"]);
      const badKey = await call(createRoute, {
        raw: body,
        headers: { "x-processing-key": "no-such-key", "x-processing-signature": "00" },
      });
      expect([badKey.status, badKey.body.code]).toEqual([403, "bad_header_key"]);
      const badSignature = await call(createRoute, {
        raw: body,
        headers: { "x-processing-key": shop.defaultKey.key, "x-processing-signature": hmac("wrong", body) },
      });
      expect([badSignature.status, badSignature.body.code]).toEqual([403, "bad_header_signature"]);
      for (const raw of [
        "{not json",
        "[1,2]",
        '"text"',
        '{"title":"a\\u0000b","currency":"EUR","amount":"25"}',
      ]) {
        const answer = await call(createRoute, { raw, pair: shop.defaultKey });
        expect([raw, answer.status, answer.body.code]).toEqual([raw, 400, "bad_content_format"]);
      }
      const huge = await call(createRoute, {
        raw: JSON.stringify({
          title: "T",
          currency: "EUR",
          amount: "25",
          description: "x".repeat(2_000_000),
        }),
        pair: shop.defaultKey,
      });
      expect(huge.status).toBe(413);
      for (const raw of ["{not json", "x".repeat(2_000_000)]) {
        const bad = await call(listRoute, { raw, pair: shop.defaultKey });
        expect(bad.status).toBeGreaterThanOrEqual(400);
        expect(bad.status).toBeLessThan(500);
      }
    });

    it("lists the merchant's own links newest first, page by page, and never another merchant's", async () => {
      const mine = [
        await newLink({ amount: "11" }),
        await newLink({ amount: "12" }),
        await newLink({ amount: "13" }),
      ];
      const foreign = await call(createRoute, {
        body: { title: "Other shop", currency: "EUR", amount: "40" },
        pair: other.defaultKey,
      });
      expect(foreign.status).toBe(201);
      const first = await list({ limit: 2 });
      expect(first.status).toBe(200);
      const page = first.body.data as { payment_links: { id: number }[]; next_cursor: string };
      expect(page.payment_links.map((link) => link.id)).toEqual([mine[2]!.id, mine[1]!.id]);
      const second = await list({ limit: 2, cursor: page.next_cursor });
      const rest = (second.body.data as { payment_links: { id: number }[] }).payment_links;
      expect(rest[0]!.id).toBe(mine[0]!.id);
      const everything = await list({ limit: 100 });
      const ids = (everything.body.data as { payment_links: { id: number }[] }).payment_links.map(
        (l) => l.id,
      );
      expect(ids).not.toContain((foreign.body.data as { id: number }).id);
      expect((everything.body.data as { next_cursor: unknown }).next_cursor).toBeNull();
      for (const bad of [{ limit: 0 }, { limit: 101 }, { limit: "5" }, { cursor: "abc" }, { cursor: "0" }]) {
        const answer = await list(bad);
        expect([JSON.stringify(bad), answer.status]).toEqual([JSON.stringify(bad), 400]);
      }
    });

    it("deactivates a link once, audited once; another merchant's or a malformed id is a 404", async () => {
      const link = await newLink({ amount: "25" });
      expect((await deactivate(link.id, other.defaultKey)).status).toBe(404);
      for (const id of ["abc", "0", "1e3", "-1", "99999999999999999999", `${link.id}.0`]) {
        const answer = await deactivate(id);
        expect([id, answer.status]).toEqual([id, 404]);
      }
      const done = await deactivate(link.id);
      expect(done.status).toBe(200);
      expect(done.body.data).toMatchObject({ id: link.id, status: "inactive" });
      expect((done.body.data as { deactivated_at: string }).deactivated_at).toMatch(/Z$/);
      const again = await deactivate(link.id);
      expect(again.body.data).toEqual(done.body.data);
      const audit = await database.db
        .select()
        .from(auditEntries)
        .where(
          and(
            eq(auditEntries.merchantId, shop.merchantId),
            eq(auditEntries.action, "payment_link_deactivated"),
          ),
        );
      expect(audit.filter((entry) => entry.detail.startsWith(`Payment link ${link.id} `))).toHaveLength(1);
    });
  });

  describe("a customer's visit", () => {
    it("makes the customer's own invoice of a fixed link: timer, link's fields, customer's details, link id", async () => {
      const link = await newLink({
        title: "Workshop",
        description: "Saturday, 10:00",
        amount: "25",
        url_success: "https://shop.example/ok",
        url_failed: "https://shop.example/ko",
      });
      const shown = await view(link.token);
      expect(shown.status).toBe(200);
      expect(shown.body).toMatchObject({
        title: "Workshop",
        merchant_name: "Links",
        amount: "25.00000000",
        currency: "EUR",
        status: "active",
        message: null,
      });
      // The customer sees nothing of the merchant's figures.
      for (const key of ["uses", "received", "paid_invoices", "max_uses", "id"])
        expect(shown.body).not.toHaveProperty(key);

      const before = Date.now();
      const started = await start(link.token, {
        ...ADA,
        sender_data: { ...ADA.sender_data, email: "ada@example.com" },
      });
      expect(started.status).toBe(201);
      expect(started.body.url).toBe(`http://kassa.test/pay/${started.body.token}`);
      const { invoice, transaction } = await storedInvoice(started.body.id as number);
      expect(transaction).toMatchObject({
        merchantId: shop.merchantId,
        type: "invoice",
        status: "pending",
        currency: "EUR",
        amount: 2_500_000_000n,
        endUserReference: null,
        apiKeyId: shop.defaultKey.id,
      });
      expect(transaction.foreignId).toMatch(new RegExp(`^link-${link.id}-1-[0-9a-f]{6}$`));
      expect(invoice).toMatchObject({
        paymentLinkId: link.id,
        title: "Workshop",
        description: "Saturday, 10:00",
        hasTimer: true,
        type: "fill_or_kill",
        urlSuccess: "https://shop.example/ok",
        urlFailed: "https://shop.example/ko",
        emailUser: "ada@example.com",
        senderType: "natural",
        senderData: {
          first_name: "Ada",
          last_name: "Lovelace",
          date_of_birth: "1990-12-10",
          email: "ada@example.com",
        },
        senderCurrency: null,
      });
      // Its own 15-minute clock, from the visit.
      const seconds = (invoice.expiresAt!.getTime() - invoice.fixedAt!.getTime()) / 1000;
      expect(seconds).toBe(900);
      expect(invoice.fixedAt!.getTime()).toBeGreaterThanOrEqual(before - 5_000);

      const second = await start(link.token, ACME);
      expect(second.status).toBe(201);
      const next = await storedInvoice(second.body.id as number);
      expect(next.transaction.foreignId).toMatch(new RegExp(`^link-${link.id}-2-[0-9a-f]{6}$`));
      expect(next.invoice.senderType).toBe("legal");
      expect(next.invoice.emailUser).toBeNull();
    });

    it("takes the customer's amount within an open link's range, in the link's currency and precision", async () => {
      const link = await newLink({ currency: "USDTE", min_amount: "20", max_amount: "500" });
      const refused: [unknown, string][] = [
        [undefined, "Enter the amount you want to pay."],
        ["19.999999", "The amount must be at least 20 USDTE."],
        ["500.000001", "The amount may not be greater than 500 USDTE."],
        ["25.1234567", "The amount has more decimal places than USDTE allows (6)."],
      ];
      for (const [amount, message] of refused) {
        const answer = await start(link.token, { ...ADA, ...(amount !== undefined && { amount }) });
        expect([amount, answer.status, (answer.body.errors as Record<string, string>)?.amount]).toEqual([
          amount,
          400,
          message,
        ]);
      }
      for (const amount of ["abc", "-30", 0, "1e400", true, {}]) {
        const answer = await start(link.token, { ...ADA, amount });
        expect([amount, answer.status, Object.keys((answer.body.errors as object) ?? {})]).toEqual([
          amount,
          400,
          ["amount"],
        ]);
      }
      const started = await start(link.token, { ...ADA, amount: "123.456789" });
      expect(started.status).toBe(201);
      const { transaction } = await storedInvoice(started.body.id as number);
      expect([transaction.currency, transaction.amount]).toEqual(["USDTE", 12_345_678_900n]);
      // The edges of the range are inside it.
      expect((await start(link.token, { ...ADA, amount: "20" })).status).toBe(201);
      expect((await start(link.token, { ...ADA, amount: 500 })).status).toBe(201);
    });

    it("refuses a fixed link's amount changed, a payer type the link does not take, and bad details", async () => {
      const link = await newLink({ amount: "25", sender_types: ["legal"] });
      const changed = await start(link.token, { ...ACME, amount: "1" });
      expect([changed.status, changed.body.errors]).toEqual([
        400,
        { amount: "The amount is fixed by this link and cannot be changed." },
      ]);
      expect((await start(link.token, { ...ACME, amount: "25" })).status).toBe(201);
      const person = await start(link.token, ADA);
      expect([person.status, person.body.errors]).toEqual([
        400,
        { sender_type: "This link takes payments from companies only." },
      ]);
      const cases: [unknown, string][] = [
        [
          { sender_type: "legal", sender_data: { legal_name: "Acme" } },
          "sender_data.country_of_registration",
        ],
        [
          { sender_type: "legal", sender_data: { legal_name: "Acme", country_of_registration: "de" } },
          "sender_data.country_of_registration",
        ],
        [
          {
            sender_type: "natural",
            sender_data: { first_name: "A", last_name: "B", date_of_birth: "2999-01-01" },
          },
          "sender_data.date_of_birth",
        ],
        [{ sender_type: "robot", sender_data: {} }, "sender_type"],
        [{}, "sender_type"],
        [{ ...ACME, sender_data: { ...ACME.sender_data, email: "not-an-email" } }, "sender_data.email"],
        [{ ...ACME, sender_data: { ...ACME.sender_data, first_name: "Ada" } }, "sender_data.first_name"],
      ];
      for (const [body, field] of cases) {
        const answer = await start(link.token, body);
        expect([JSON.stringify(body), answer.status]).toEqual([JSON.stringify(body), 400]);
        expect(Object.keys((answer.body.errors as object) ?? {})).toContain(field);
      }
      for (const raw of ["{oops", "[]", "null", "x".repeat(2_000_000)]) {
        const answer = await call(startRoute, { raw, params: { token: link.token } });
        expect(answer.status, raw.slice(0, 10)).toBeGreaterThanOrEqual(400);
        expect(answer.status, raw.slice(0, 10)).toBeLessThan(500);
      }
      expect((await start("no-such-token", ACME)).status).toBe(404);
      expect((await view("no-such-token")).status).toBe(404);
      expect((await view("a\u0000b")).status).toBe(404);
    });

    it("refuses every visit to a deactivated or expired link with 410 and words for the customer, while started invoices carry on", async () => {
      const link = await newLink({ amount: "25" });
      const started = await start(link.token, ADA);
      expect(started.status).toBe(201);
      expect((await deactivate(link.id)).status).toBe(200);
      const refused = await start(link.token, ADA);
      expect(refused.status).toBe(410);
      expect(refused.body).toEqual({
        error:
          "Links has turned this payment link off, so it cannot be paid any more. Ask Links for a new link.",
        code: "gone",
      });
      expect((await view(link.token)).status).toBe(410);
      // The invoice started before is still open and payable.
      const before = await loadInvoiceById(database.db, started.body.id as number);
      expect(before?.status).toBe("pending");
      const fixed = await fixInvoiceCurrency(database.db, {
        token: started.body.token as string,
        currency: "BTC",
        settings,
        keys: testKeys,
      });
      expect(fixed.address?.address).toBeTruthy();

      const expiring = await newLink({
        amount: "25",
        expires_at: new Date(Date.now() + 60_000).toISOString(),
      });
      expect((await start(expiring.token, ADA)).status).toBe(201);
      await database.db
        .update(paymentLinks)
        .set({ expiresAt: new Date(Date.now() - 1_000) })
        .where(eq(paymentLinks.id, expiring.id));
      const late = await start(expiring.token, ADA);
      expect([late.status, late.body.error]).toEqual([
        410,
        "This payment link has expired, so it cannot be paid any more. Ask Links for a new link.",
      ]);
    });

    it("answers the form post without JavaScript with a redirect to the new checkout, or back to the link", async () => {
      const link = await newLink({ min_amount: "10" });
      const post = (form: Record<string, string>) =>
        noScriptStartRoute(
          new Request(`http://kassa.test/link/${link.token}/start`, {
            method: "POST",
            headers: { "content-type": "application/x-www-form-urlencoded" },
            body: new URLSearchParams(form).toString(),
          }),
          { params: Promise.resolve({ token: link.token }) },
        );
      const good = await post({
        amount: "12,50",
        sender_type: "natural",
        "sender_data.first_name": "Ada",
        "sender_data.last_name": "Lovelace",
        "sender_data.date_of_birth": "1990-12-10",
      });
      expect(good.status).toBe(303);
      const location = good.headers.get("location")!;
      expect(location).toMatch(/^\/pay\/[A-Za-z0-9_-]+$/);
      const [made] = await database.db
        .select({ amount: transactions.amount })
        .from(invoices)
        .innerJoin(transactions, eq(transactions.id, invoices.transactionId))
        .where(eq(invoices.token, location.split("/").pop()!));
      expect(made?.amount).toBe(1_250_000_000n);
      const bad = await post({ amount: "5", sender_type: "natural" });
      expect([bad.status, bad.headers.get("location")]).toEqual([303, `/link/${link.token}?refused=1`]);
    });
  });

  describe("uses and money received", () => {
    it("counts confirmed and open invoices against max_uses; expired ones free their use", async () => {
      const link = await newLink({ amount: "25", max_uses: 2 });
      const first = await start(link.token, ADA);
      const second = await start(link.token, ADA);
      expect([first.status, second.status]).toEqual([201, 201]);
      const full = await start(link.token, ADA);
      expect(full.status).toBe(410);
      expect(full.body.error).toContain("taken by other customers paying right now");
      const listed = async () =>
        (
          (await list({ limit: 100 })).body.data as { payment_links: Record<string, unknown>[] }
        ).payment_links.find((entry) => entry.id === link.id)!;
      expect(await listed()).toMatchObject({
        status: "used_up",
        uses: 2,
        open_invoices: 2,
        paid_invoices: 0,
      });

      // The first customer pays and it confirms; the second walks away and the invoice expires.
      const paying = await fixInvoiceCurrency(database.db, {
        token: first.body.token as string,
        currency: "BTC",
        settings,
        keys: testKeys,
      });
      await pay(database.db, paying, paying.invoice.senderAmount!);
      await confirm(database.db, "BTC");
      expect((await loadInvoiceById(database.db, paying.id))?.status).toBe("confirmed");
      await expireInvoiceNow(database.db, {
        merchantId: shop.merchantId,
        invoiceId: second.body.id as number,
      });
      expect(await listed()).toMatchObject({ status: "active", uses: 1, open_invoices: 0, paid_invoices: 1 });

      const third = await start(link.token, ADA);
      expect(third.status).toBe(201);
      const usedUp = await start(link.token, ADA);
      expect(usedUp.status).toBe(410);
      expect(await listed()).toMatchObject({ status: "used_up", uses: 2 });
    });

    it("reports as received exactly what its invoices were credited, by transactions/info, and nothing of other invoices", async () => {
      const link = await newLink({ currency: "EUR", min_amount: "10" });
      const amounts = ["10.01", "33.33", "100"];
      const credited: bigint[] = [];
      for (const amount of amounts) {
        const started = await start(link.token, { ...ADA, amount });
        const fixed = await fixInvoiceCurrency(database.db, {
          token: started.body.token as string,
          currency: "LTC",
          settings,
          keys: testKeys,
        });
        await pay(database.db, fixed, fixed.invoice.senderAmount!);
      }
      // An ordinary invoice of the same merchant, paid too: not the link's money.
      const plain = await createInvoice(database.db, {
        merchantId: shop.merchantId,
        request: invoiceRequest({ timer: false }),
        settings,
      });
      const plainFixed = await fixInvoiceCurrency(database.db, {
        token: plain.invoice.token,
        currency: "LTC",
        settings,
        keys: testKeys,
      });
      await pay(database.db, plainFixed, plainFixed.invoice.senderAmount!);
      await confirm(database.db, "LTC");

      const linkInvoices = await database.db
        .select({ id: invoices.transactionId })
        .from(invoices)
        .where(eq(invoices.paymentLinkId, link.id));
      expect(linkInvoices).toHaveLength(3);
      for (const { id } of linkInvoices) {
        const info = await call(transactionInfoRoute, { body: { id }, pair: shop.defaultKey });
        expect(info.status).toBe(200);
        expect(info.body.status).toBe("confirmed");
        expect((info.body.additional_details as Record<string, unknown>).payment_link_id).toBe(link.id);
        credited.push(units((info.body.currency_received as { amount_minus_fee: string }).amount_minus_fee));
      }
      const expected = credited.reduce((sum, value) => sum + value, 0n);
      // Net of the deposit fee: something, and never more than the 143.34 EUR invoiced.
      expect(expected).toBeGreaterThan(0n);
      expect(expected).toBeLessThanOrEqual(14_334_000_000n);
      const entry = (
        (await list({ limit: 100 })).body.data as { payment_links: Record<string, unknown>[] }
      ).payment_links.find((l) => l.id === link.id)!;
      expect(entry).toMatchObject({ paid_invoices: 3, open_invoices: 0, uses: 3 });
      expect(units(entry.received as string)).toBe(expected);
      const plainInfo = await call(transactionInfoRoute, { body: { id: plain.id }, pair: shop.defaultKey });
      expect(plainInfo.body.additional_details).not.toHaveProperty("payment_link_id");
    });

    it("gives exactly one of two visits racing for the last use an invoice", async () => {
      for (let round = 0; round < 3; round++) {
        const link = await newLink({ amount: "25", max_uses: 1 });
        const racers = 6;
        const answers = await Promise.all(Array.from({ length: racers }, () => start(link.token, ADA)));
        const statuses = answers.map((answer) => answer.status).sort();
        expect(statuses).toEqual([201, ...Array(racers - 1).fill(410)]);
        expect(await database.db.$count(invoices, eq(invoices.paymentLinkId, link.id))).toBe(1);
      }
      // The engine itself, without the routes between: the same one winner.
      const link = await newLink({ amount: "25", max_uses: 1 });
      const request = startPaymentLinkRequest.parse(ADA);
      const results = await Promise.allSettled(
        Array.from({ length: 4 }, () =>
          startPaymentLink(database.db, { token: link.token, request, settings }),
        ),
      );
      expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
      for (const result of results)
        if (result.status === "rejected") expect((result.reason as KassaError).code).toBe("gone");
      expect(await database.db.$count(invoices, eq(invoices.paymentLinkId, link.id))).toBe(1);
    });
  });

  describe("callbacks", () => {
    it("carry payment_link_id on a link's invoices only; other invoice callbacks keep their keys", async () => {
      const link = await newLink({ amount: "25" });
      const started = await start(link.token, ADA);
      await fixInvoiceCurrency(database.db, {
        token: started.body.token as string,
        currency: "BTC",
        settings,
        keys: testKeys,
      });
      const [queued] = await database.db
        .select()
        .from(callbacks)
        .where(eq(callbacks.transactionId, started.body.id as number));
      expect(queued?.event).toBe("invoice.pending");
      const body = JSON.parse(queued!.body) as Record<string, unknown>;
      expect(body).toMatchObject({
        id: started.body.id,
        type: "invoice",
        status: "pending",
        payment_link_id: link.id,
      });

      const plain = await createInvoice(database.db, {
        merchantId: shop.merchantId,
        request: invoiceRequest({ timer: false }),
        settings,
      });
      await fixInvoiceCurrency(database.db, {
        token: plain.invoice.token,
        currency: "BTC",
        settings,
        keys: testKeys,
      });
      const plainBody = await buildInvoiceCallback(database.db, plain.id);
      expect(plainBody).not.toHaveProperty("payment_link_id");
      const linkBody = await buildInvoiceCallback(database.db, started.body.id as number);
      // The same keys as any invoice callback in the same state, in the same order, then the link's id.
      expect(Object.keys(linkBody)).toEqual([...Object.keys(plainBody), "payment_link_id"]);
    });
  });

  describe("the dashboard's endpoints", () => {
    it("creates with the API's rules and deactivates (confirmed, audited) for roles that may create invoices", async () => {
      const made = await shop.dashboard(dashboardCreateRoute, {
        role: "developer",
        body: { title: "From the dashboard", currency: "EUR", min_amount: "10", max_amount: "20" },
      });
      expect(made.status).toBe(201);
      expect(made.body).toMatchObject({
        status: "active",
        min_amount: "10.00000000",
        created_at: expect.any(String),
      });
      const bad = await shop.dashboard(dashboardCreateRoute, {
        body: { title: "", currency: "EUR", amount: "25", min_amount: "10" },
      });
      expect(bad.status).toBe(400);
      expect(Object.keys(bad.body.fields as object).sort()).toEqual(["min_amount", "title"]);
      const theirs = await other.dashboard(dashboardDeactivateRoute, { id: made.body.id as number });
      expect(theirs.status).toBe(404);
      const done = await shop.dashboard(dashboardDeactivateRoute, {
        role: "admin",
        id: made.body.id as number,
      });
      expect([done.status, done.body.status]).toEqual([200, "inactive"]);
      const [entry] = await database.db
        .select()
        .from(auditEntries)
        .where(
          and(
            eq(auditEntries.merchantId, shop.merchantId),
            eq(auditEntries.action, "payment_link_deactivated"),
          ),
        )
        .orderBy(auditEntries.id)
        .limit(1)
        .offset(
          (await database.db.$count(
            auditEntries,
            and(
              eq(auditEntries.merchantId, shop.merchantId),
              eq(auditEntries.action, "payment_link_deactivated"),
            ),
          )) - 1,
        );
      expect(entry).toMatchObject({
        actor: "admin@links.test",
        detail: `Payment link ${made.body.id} "From the dashboard"`,
      });
      const missing = await shop.dashboard(dashboardDeactivateRoute, { id: 0 });
      expect(missing.status).toBe(404);
    });
  });
});
