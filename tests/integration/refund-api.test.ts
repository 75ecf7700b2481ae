import { createHmac, randomBytes } from "node:crypto";
import { and, asc, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as eventsRoute } from "@/app/api/v2/events/list/route";
import { POST as cancelRoute } from "@/app/api/v2/invoices/[foreign_id]/refunds/[refund_id]/cancel/route";
import { POST as createRoute } from "@/app/api/v2/invoices/[foreign_id]/refunds/create/route";
import { POST as listRoute } from "@/app/api/v2/invoices/[foreign_id]/refunds/list/route";
import { POST as previewRoute } from "@/app/api/v2/invoices/[foreign_id]/refunds/preview/route";
import type { RouteHandler } from "@/lib/api/route-handler";
import { setCallbackUrl } from "@/lib/callbacks/set-callback-url";
import { SecretBox } from "@/lib/crypto/secret-box";
import { registerDatabase, unregisterDatabase } from "@/lib/db/client";
import { callbacks } from "@/lib/db/schema";
import { callbackHandlers } from "@/lib/host/job-handlers";
import { loadInvoiceById } from "@/lib/invoices/load-invoice";
import { resolveInvoiceException } from "@/lib/invoices/resolve-invoice-exception";
import { runDueJobs } from "@/lib/jobs/runner";
import { creditSandboxBalance } from "@/lib/ledger/credit-sandbox-balance";
import { createMerchant } from "@/lib/merchants/create-merchant";
import { parseDecimal } from "@/lib/money";
import { claimRefund } from "@/lib/refunds/claim-refund";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { confirm, createFixedInvoice, pay, pricing } from "../support/invoices";
import { startReceiver } from "../support/receiver";
import { waitUntil } from "../support/wait";

const BTC_ADDRESS = "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu";
/** The registry's BTC figures, written out: 0.0001 BTC minimum payout, 0.00002 BTC network fee. */
const BTC_MINIMUM = 10_000n;
const BTC_FEE = 2_000n;

/** Eight-digit wire amount of `units` (10^-8), written here on its own. */
const wire = (units: bigint) =>
  `${units / 100_000_000n}.${(units % 100_000_000n).toString().padStart(8, "0")}`;

/**
 * The refund API (Kassa's extension of the public API), through the real route handlers and the
 * signature wrapper: preview, offer, list and cancel by the invoice's foreign_id, and the
 * `refund.<status>` callbacks each change queues on the invoice, as events/list shows them.
 */
describe(`the refund API on ${testDriver}`, () => {
  let database: TestDatabase;
  type Caller = { merchantId: number; key: string; secret: string };
  let shop: Caller;
  let other: Caller;
  const masterKey = randomBytes(32);
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  async function caller(name: string): Promise<Caller> {
    const created = await createMerchant(database.db, new SecretBox(masterKey), {
      name,
      email: `${name.toLowerCase()}-${randomBytes(4).toString("hex")}@example.com`,
      password: "long password 1",
    });
    await creditSandboxBalance(database.db, {
      merchantId: created.merchantId,
      currency: "EUR",
      amount: parseDecimal("100000"),
      isSandbox: true,
    });
    await setCallbackUrl(database.db, {
      merchantId: created.merchantId,
      url: receiver.url(`/${name}`),
      mode: "sandbox",
    });
    return { merchantId: created.merchantId, key: created.apiKey.key, secret: created.apiKey.secret };
  }

  async function send(
    route: RouteHandler,
    path: string,
    body: unknown,
    params: Record<string, string>,
    as = shop,
  ) {
    const text = JSON.stringify(body);
    const response = await route(
      new Request(`http://kassa.test/api/v2${path}`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-processing-key": as.key,
          "x-processing-signature": createHmac("sha512", as.secret).update(text).digest("hex"),
        },
        body: text,
      }),
      { params: Promise.resolve(params) },
    );
    const answer = await response.text();
    return { status: response.status, json: answer ? JSON.parse(answer) : null };
  }

  const preview = (foreignId: string, terms: unknown, as = shop) =>
    send(previewRoute, `/invoices/${foreignId}/refunds/preview`, terms, { foreign_id: foreignId }, as);
  const create = (foreignId: string, terms: unknown, as = shop) =>
    send(createRoute, `/invoices/${foreignId}/refunds/create`, terms, { foreign_id: foreignId }, as);
  const list = (foreignId: string) =>
    send(listRoute, `/invoices/${foreignId}/refunds/list`, {}, { foreign_id: foreignId });
  const cancel = (foreignId: string, refundId: string, as = shop) =>
    send(
      cancelRoute,
      `/invoices/${foreignId}/refunds/${refundId}/cancel`,
      {},
      { foreign_id: foreignId, refund_id: refundId },
      as,
    );

  /** A 100 EUR invoice paid in BTC with `extra` units more than due, confirmed: it owes `extra` back. */
  async function overpaid(extra: bigint, as = shop) {
    const foreignId = `order-${randomBytes(6).toString("hex")}`;
    const invoice = await createFixedInvoice(database.db, as.merchantId, "BTC", {
      timer: false,
      foreign_id: foreignId,
    });
    await pay(database.db, invoice, invoice.invoice.senderAmount! + extra);
    await confirm(database.db, "BTC");
    const settled = (await loadInvoiceById(database.db, invoice.id))!;
    expect([settled.status, settled.invoice.statusReason]).toEqual(["confirmed", "overpaid"]);
    return { foreignId, invoiceId: invoice.id };
  }

  const refundCallbacks = (invoiceId: number) =>
    database.db
      .select({ event: callbacks.event, body: callbacks.body })
      .from(callbacks)
      .where(and(eq(callbacks.transactionId, invoiceId), like(callbacks.event, "refund.%")))
      .orderBy(asc(callbacks.id));

  beforeAll(async () => {
    process.env.KASSA_MASTER_KEY = masterKey.toString("hex");
    process.env.KASSA_MODE = "sandbox";
    receiver = await startReceiver();
    database = await createTestDatabase();
    registerDatabase(database);
    shop = await caller("Shop");
    other = await caller("Other");
  });

  afterAll(async () => {
    unregisterDatabase();
    await database.drop();
    await receiver.close();
  });

  it("previews what the customer receives, with the fee on either side, and offers nothing", async () => {
    const extra = 50_000n;
    const { foreignId, invoiceId } = await overpaid(extra);
    const merchantPays = await preview(foreignId, { amount: "excess" });
    expect(merchantPays.status).toBe(200);
    expect(merchantPays.json.data).toMatchObject({
      invoice_foreign_id: foreignId,
      currency: "BTC",
      owed: wire(extra),
      amount: wire(extra),
      is_under_minimum: false,
      alternatives: null,
    });
    expect(merchantPays.json.data.options[0]).toEqual({
      currency: "BTC",
      receives: wire(extra),
      network_fee: wire(BTC_FEE),
      minimum: wire(BTC_MINIMUM),
      is_under_minimum: false,
      debit: expect.stringMatching(/^\d+\.\d{8}$/),
      is_insufficient: false,
    });
    // What the claim's payout takes from the invoice currency's balance, against what that balance holds.
    const { balance } = merchantPays.json.data;
    expect(balance.currency).toBe("EUR");
    expect(parseDecimal(merchantPays.json.data.options[0].debit)).toBeLessThanOrEqual(
      parseDecimal(balance.available),
    );
    const customerPays = await preview(foreignId, { amount: "excess", network_fee: "customer" });
    expect(customerPays.json.data.options[0].receives).toBe(wire(extra - BTC_FEE));
    expect(await list(foreignId)).toEqual({ status: 200, json: { data: [] } });
    expect(await refundCallbacks(invoiceId)).toEqual([]);
  });

  it("offers a refund with its claim link once, lists it without the link, and calls back refund.offered", async () => {
    const extra = 40_000n;
    const { foreignId, invoiceId } = await overpaid(extra);
    const created = await create(foreignId, { amount: "full" });
    expect(created.status).toBe(201);
    const refund = created.json.data;
    expect(refund).toMatchObject({
      invoice_foreign_id: foreignId,
      status: "offered",
      currency: "BTC",
      amount: wire(extra),
      amount_kind: "full",
      rate: "payment",
      network_fee: "merchant",
      currencies: ["BTC"],
      claim: null,
      payout: null,
    });
    expect(refund.claim_url).toMatch(/^https?:\/\/[^/]+\/refund\/[A-Za-z0-9_-]{43}$/);

    const listed = await list(foreignId);
    expect(listed.json.data).toEqual([{ ...refund, claim_url: null }]);

    const queued = await refundCallbacks(invoiceId);
    expect(queued.map((callback) => callback.event)).toEqual(["refund.offered"]);
    expect(JSON.parse(queued[0]!.body)).toEqual({ ...refund, claim_url: null });
    expect(queued[0]!.body).not.toContain(refund.claim_url.split("/refund/")[1]);

    const events = await send(eventsRoute, "/events/list", { transaction_id: invoiceId }, {});
    expect(events.json.data.events.map((event: { event: string }) => event.event)).toContain(
      "refund.offered",
    );

    // Delivered over HTTP to the shop's endpoint, signed by the key that offered it, like any callback.
    const body = queued[0]!.body;
    const delivered = await waitUntil(
      async () => {
        await runDueJobs(
          database.db,
          callbackHandlers({
            mode: "sandbox",
            timeoutMs: 2_000,
            scheduleSeconds: [1],
            box: new SecretBox(masterKey),
          }),
        );
        return receiver.received.find((request) => request.body.toString() === body);
      },
      { what: "the refund.offered callback at the shop's endpoint" },
    );
    expect(delivered.headers["x-processing-key"]).toBe(shop.key);
    expect(delivered.headers["x-processing-signature"]).toBe(
      createHmac("sha512", shop.secret).update(body).digest("hex"),
    );
  });

  it("cancels an unclaimed refund, answers a repeat as it is, and refuses to cancel a claimed one", async () => {
    const first = await overpaid(30_000n);
    const offered = (await create(first.foreignId, { amount: "full" })).json.data;
    const cancelled = await cancel(first.foreignId, String(offered.id));
    expect(cancelled.status).toBe(200);
    expect(cancelled.json.data).toMatchObject({ id: offered.id, status: "cancelled" });
    expect((await cancel(first.foreignId, String(offered.id))).json.data.status).toBe("cancelled");
    expect((await refundCallbacks(first.invoiceId)).map((callback) => callback.event)).toEqual([
      "refund.offered",
      "refund.cancelled",
    ]);

    const second = await overpaid(30_000n);
    const claimed = (await create(second.foreignId, { amount: "full" })).json.data;
    await claimRefund(database.db, {
      token: claimed.claim_url.split("/refund/")[1],
      currency: "BTC",
      address: BTC_ADDRESS,
      pricing,
    });
    const refused = await cancel(second.foreignId, String(claimed.id));
    expect(refused.status).toBe(409);
    const [after] = (await list(second.foreignId)).json.data;
    expect(after).toMatchObject({ status: "claimed", claim: { currency: "BTC", address: BTC_ADDRESS } });
    expect(after.payout).toMatchObject({ currency: "BTC", amount: wire(30_000n) });
    const events = (await refundCallbacks(second.invoiceId)).map((callback) => callback.event);
    expect(events).toEqual(["refund.offered", "refund.claimed"]);
  });

  it("answers bad terms, unknown invoices and other merchants' refunds with a 4xx and offers nothing", async () => {
    const { foreignId, invoiceId } = await overpaid(20_000n);
    const noAmount = await create(foreignId, { amount: "custom" });
    expect(noAmount.status).toBe(400);
    expect(JSON.stringify(noAmount.json)).toContain("custom_amount");
    expect((await create(foreignId, { amount: "excess", custom_amount: "0.001" })).status).toBe(400);
    expect((await create(foreignId, { amount: "custom", custom_amount: "-1" })).status).toBe(400);
    expect((await create(foreignId, { amount: "custom", custom_amount: "0.5" })).status).toBe(400);
    expect((await create(foreignId, { amount: "full", rate: "yesterday" })).status).toBe(400);
    expect((await create(foreignId, { amount: "full", currencies: ["NOPE"] })).status).toBe(400);
    expect((await create(foreignId, { amount: "full", expires_in_days: 0 })).status).toBe(400);
    expect((await create("no-such-order", { amount: "full" })).status).toBe(404);
    expect((await create(foreignId, { amount: "full" }, other)).status).toBe(404);
    expect(await refundCallbacks(invoiceId)).toEqual([]);

    const offered = (await create(foreignId, { amount: "full" })).json.data;
    expect((await cancel(foreignId, String(offered.id), other)).status).toBe(404);
    expect((await cancel(foreignId, "1e3")).status).toBe(404);
    const elsewhere = await overpaid(20_000n);
    expect((await cancel(elsewhere.foreignId, String(offered.id))).status).toBe(404);
    expect((await list(foreignId)).json.data[0].status).toBe("offered");
  });

  it("offers no refund on an invoice the merchant marked resolved", async () => {
    const { foreignId, invoiceId } = await overpaid(20_000n);
    await resolveInvoiceException(database.db, {
      merchantId: shop.merchantId,
      invoiceId,
      reason: "customer_declined",
      note: "",
      audit: { actor: { kind: "cli" } },
    });
    const refused = await create(foreignId, { amount: "full" });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.json)).toContain("marked resolved");
    expect((await list(foreignId)).json.data).toEqual([]);
  });
});
