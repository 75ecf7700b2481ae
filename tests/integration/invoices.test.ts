import { asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkoutView } from "@/lib/checkout/checkout-view";
import { queryRows } from "@/lib/db/client";
import { emails, transactionEvents } from "@/lib/db/schema";
import { cancelInvoice } from "@/lib/invoices/cancel-invoice";
import { createInvoice } from "@/lib/invoices/create-invoice";
import { fixInvoiceCurrency } from "@/lib/invoices/fix-invoice-currency";
import { loadInvoiceById } from "@/lib/invoices/load-invoice";
import { toInvoiceResponse } from "@/lib/invoices/to-invoice-response";
import { runDueJobs } from "@/lib/jobs/runner";
import { listBalances } from "@/lib/ledger/list-balances";
import { createMerchant } from "@/lib/merchants/create-merchant";
import { divide, formatAmount, parseDecimal, percentOf } from "@/lib/money";
import { testClock } from "../support/clock";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import {
  confirm,
  createFixedInvoice,
  handlers,
  invoiceRequest,
  pay,
  settings,
  testKeys,
} from "../support/invoices";
import { ledgerInvariants } from "../support/ledger";

describe(`invoice life cycle on ${testDriver}`, () => {
  let database: TestDatabase;
  let merchantId: number;

  const balance = async (currency: string) =>
    (await listBalances(database.db, merchantId)).find((b) => b.currency === currency)!.balance;
  const reload = async (id: number) => (await loadInvoiceById(database.db, id))!;
  const mailsFor = (id: number) =>
    database.db.select().from(emails).where(eq(emails.transactionId, id)).orderBy(asc(emails.id));
  const timeline = async (id: number) =>
    (
      await database.db
        .select()
        .from(transactionEvents)
        .where(eq(transactionEvents.transactionId, id))
        .orderBy(asc(transactionEvents.id))
    ).map((e) => `${e.toStatus}${e.reason ? `:${e.reason}` : ""}`);

  beforeAll(async () => {
    database = await createTestDatabase();
    merchantId = (
      await createMerchant(database.db, database.box, {
        name: "Shop",
        email: "shop@example.com",
        password: "long password 1",
      })
    ).merchantId;
  });
  afterAll(() => database.drop());

  it("answers creation with exactly the fields of spec 2.3", async () => {
    const created = await createInvoice(database.db, {
      merchantId,
      request: invoiceRequest({ timer: false }),
      settings,
    });
    const response = toInvoiceResponse(created, "https://pay.example");
    expect(Object.keys(response).sort()).toEqual(
      [
        "id",
        "url",
        "foreign_id",
        "end_user_reference",
        "address",
        "title",
        "status",
        "currency",
        "amount",
        "sender_currency",
        "sender_amount",
        "fixed_at",
        "release_at",
        "seconds_left",
      ].sort(),
    );
    expect(response).toMatchObject({
      status: "created",
      address: null,
      amount: "100.00000000",
      currency: "EUR",
      sender_currency: null,
      sender_amount: null,
      fixed_at: null,
      release_at: null,
      seconds_left: null,
    });
    expect(response.url).toMatch(/^https:\/\/pay\.example\/pay\/[A-Za-z0-9_-]{24}$/);
  });

  it("starts a timer invoice pending with its clock running, and its address when the currency is given", async () => {
    const start = Math.floor(Date.now() / 1000);
    const open = toInvoiceResponse(
      await createInvoice(database.db, { merchantId, request: invoiceRequest({ timer: true }), settings }),
      "https://pay.example",
    );
    // The public API's types 2 and 3: pending at once, fixed_at and release_at as unix seconds, 15 minutes apart.
    expect(open).toMatchObject({
      status: "pending",
      address: null,
      sender_currency: null,
      sender_amount: null,
    });
    expect(open.fixed_at).toBeGreaterThanOrEqual(start);
    expect(open.release_at! - open.fixed_at!).toBe(900);
    expect(open.seconds_left).toBeGreaterThanOrEqual(899);
    expect(open.seconds_left).toBeLessThanOrEqual(900);

    const fixed = await createInvoice(database.db, {
      merchantId,
      request: invoiceRequest({ timer: true, sender_currency: "BTC" }),
      settings,
      keys: testKeys,
    });
    const response = toInvoiceResponse(fixed, "https://pay.example");
    expect(response.status).toBe("pending");
    expect(response.address).toMatch(/^bc1q/);
    expect(response.sender_currency).toBe("BTC");
    // 100 EUR at 1.08 USD/EUR over 65000 USD/BTC with the 0.5 % spread, rounded up to the satoshi.
    const due = divide(
      parseDecimal("100") * parseDecimal("1.08") * 1_000_000n,
      parseDecimal("65000") * 995_000n,
      "up",
    );
    expect(response.sender_amount).toBe(formatAmount(due));
    expect(response.release_at! - response.fixed_at!).toBe(900);
    expect(fixed).toEqual(await reload(fixed.id));
    expect(await timeline(fixed.id)).toEqual(["pending:currency_fixed"]);
    // A payment to the address handed out at creation moves it on without the checkout ever opening.
    await pay(database.db, fixed, fixed.invoice.senderAmount!);
    expect((await reload(fixed.id)).status).toBe("processing");
    await confirm(database.db, "BTC");
    expect((await reload(fixed.id)).status).toBe("confirmed");
  });

  it("lets the customer choose the currency of a pending timer invoice within its clock, which keeps running", async () => {
    const created = await createInvoice(database.db, { merchantId, request: invoiceRequest(), settings });
    const chosen = await fixInvoiceCurrency(database.db, {
      token: created.invoice.token,
      currency: "LTC",
      settings,
      keys: testKeys,
    });
    expect(chosen.status).toBe("pending");
    expect(chosen.address?.currency).toBe("LTC");
    expect(chosen.invoice.expiresAt).toEqual(created.invoice.expiresAt);
    expect(chosen.invoice.fixedAt).toEqual(created.invoice.fixedAt);
    expect(await timeline(created.id)).toEqual(["pending:timer_started", "pending:currency_fixed"]);
    const jobs = await queryRows<{ n: number | string }>(
      database.db,
      sql`select count(*) as n from jobs where payload->>'invoiceId' = ${String(created.id)}`,
    );
    expect(Number(jobs[0]!.n)).toBe(1); // the one expiry job of creation, not a second clock
  });

  it("returns the invoice exactly as it reads back, with its first event and expiry job", async () => {
    for (const [overrides, events] of [
      [{}, ["pending:timer_started"]],
      [{ timer: false, sender_currency: "BTC", callback_url: "https://shop.example/cb" }, ["created"]],
    ] as const) {
      const created = await createInvoice(database.db, {
        merchantId,
        request: invoiceRequest(overrides),
        settings,
      });
      expect(created).toEqual(await reload(created.id));
      expect(await timeline(created.id)).toEqual(events);
      const jobs = await queryRows<{ run_at: string | Date; dedupe_key: string }>(
        database.db,
        sql`select run_at, dedupe_key from jobs where payload->>'invoiceId' = ${String(created.id)}`,
      );
      const expiresAt = created.invoice.expiresAt;
      expect(jobs.map((job) => [new Date(job.run_at).getTime(), job.dedupe_key])).toEqual(
        expiresAt ? [[expiresAt.getTime(), `invoice-expiry:${created.id}:${expiresAt.getTime()}`]] : [],
      );
    }
  });

  it("pays exactly: pending → processing → confirmed, credited once at the locked rate minus the fee", async () => {
    const before = await balance("EUR");
    const invoice = await createFixedInvoice(database.db, merchantId, "BTC");
    expect(invoice.status).toBe("pending");
    const response = toInvoiceResponse(invoice, "https://pay.example");
    expect(response.address).toMatch(/^bc1q/);
    expect(response.release_at! - response.fixed_at!).toBe(900);
    expect(response.seconds_left).toBeGreaterThan(890);

    const due = invoice.invoice.senderAmount!;
    await pay(database.db, invoice, due);
    expect((await reload(invoice.id)).status).toBe("processing");
    // The timer stops while a payment is being confirmed.
    expect(toInvoiceResponse(await reload(invoice.id), "x").seconds_left).toBeNull();

    await confirm(database.db, "BTC");
    const settled = await reload(invoice.id);
    expect(settled.status).toBe("confirmed");
    expect(settled.invoice.statusReason).toBe("paid");

    // Independently of the pricing code: due BTC × 65000 USD × (1 − 0.5%) ÷ 1.08 USD per EUR, rounded
    // down to EUR's precision (8 fraction digits, as the public API's fiat); the fee rounded up.
    const gross = divide(due * parseDecimal("65000") * 995_000n, parseDecimal("1.08") * 1_000_000n, "down");
    const fee = percentOf(gross, 5_000, "up");
    expect(settled.invoice.creditedAmount).toBe(gross - fee);
    expect(await balance("EUR")).toBe(before + gross - fee);
    // The merchant receives at least the invoice amount before fees: the rounding favours nobody but by one unit.
    expect(gross >= parseDecimal("100")).toBe(true);
    expect(gross - parseDecimal("100") < parseDecimal("0.05")).toBe(true);

    // Running the jobs again credits nothing more.
    await confirm(database.db, "BTC");
    expect(await balance("EUR")).toBe(before + gross - fee);
    expect(await timeline(invoice.id)).toEqual([
      "pending:timer_started",
      "pending:currency_fixed",
      "processing:payment_seen",
      "confirmed:paid",
    ]);
    expect((await mailsFor(invoice.id)).map((m) => m.kind)).toEqual(["receipt"]);
  });

  it("lets an underpaid fill_or_kill invoice be topped up until its deadline, then fails it and mails full-refund instructions", async () => {
    const clock = testClock();
    const invoice = await createFixedInvoice(database.db, merchantId, "LTC", {}, { ...settings, clock });
    const paid = invoice.invoice.senderAmount! / 2n;
    await pay(database.db, invoice, paid, clock);
    await confirm(database.db, "LTC", clock);
    const waiting = await reload(invoice.id);
    // The short payment is credited, but the customer may still send the rest before the deadline.
    expect([waiting.status, waiting.invoice.statusReason]).toEqual(["pending", "awaiting_remainder"]);
    expect(waiting.invoice.creditedAmount > 0n).toBe(true);
    expect(await mailsFor(invoice.id)).toEqual([]);
    // The checkout asks for the rest, to the same address.
    expect(await checkoutView(database.db, waiting, { pricing: settings.pricing, clock })).toMatchObject({
      status: "pending",
      address: invoice.address!.address,
      paid_amount: formatAmount(paid),
      remaining_amount: formatAmount(invoice.invoice.senderAmount! - paid),
    });

    clock.advance(settings.timerSeconds + 1);
    await runDueJobs(database.db, handlers, { clock });
    const settled = await reload(invoice.id);
    expect(settled.status).toBe("failed");
    expect(settled.invoice.statusReason).toBe("underpaid");
    expect(settled.invoice.creditedAmount).toBe(waiting.invoice.creditedAmount); // the merchant refunds
    const [mail] = (await mailsFor(invoice.id)).filter((m) => m.kind === "refund_underpaid");
    expect(mail!.recipient).toBe("buyer@example.com");
    expect(mail!.body).toContain(`full refund of the ${formatAmount(paid).replace(/\.?0+$/, "")} LTC`);
  });

  it("confirms an underpaid fill_or_kill invoice topped up before its deadline", async () => {
    const invoice = await createFixedInvoice(database.db, merchantId, "LTC");
    const due = invoice.invoice.senderAmount!;
    await pay(database.db, invoice, due / 2n);
    await confirm(database.db, "LTC");
    await pay(database.db, invoice, due - due / 2n);
    await confirm(database.db, "LTC");
    const settled = await reload(invoice.id);
    expect([settled.status, settled.invoice.statusReason]).toEqual(["confirmed", "paid"]);
    expect((await timeline(invoice.id)).slice(2)).toEqual([
      "processing:payment_seen",
      "pending:awaiting_remainder",
      "processing:payment_seen",
      "confirmed:paid",
    ]);
  });

  it("confirms an overpaid invoice and mails how the difference is refunded", async () => {
    const invoice = await createFixedInvoice(database.db, merchantId, "ETH");
    const due = invoice.invoice.senderAmount!;
    const extra = parseDecimal("0.01");
    await pay(database.db, invoice, due + extra);
    await confirm(database.db, "ETH");
    const settled = await reload(invoice.id);
    expect(settled.status).toBe("confirmed");
    expect(settled.invoice.statusReason).toBe("overpaid");
    const kinds = (await mailsFor(invoice.id)).map((m) => m.kind);
    expect(kinds).toEqual(["receipt", "refund_overpaid"]);
    const [mail] = (await mailsFor(invoice.id)).filter((m) => m.kind === "refund_overpaid");
    expect(mail!.body).toContain("The extra 0.01 ETH will be refunded");
  });

  it("treats a difference of one smallest unit as exact (the rounding tolerance)", async () => {
    const invoice = await createFixedInvoice(database.db, merchantId, "USDTT");
    const due = invoice.invoice.senderAmount!;
    const oneUnit = 100n; // USDT has 6 decimals: 10^-6 = 100 minor units
    await pay(database.db, invoice, due - oneUnit);
    await confirm(database.db, "USDTT");
    expect((await reload(invoice.id)).invoice.statusReason).toBe("paid");

    // Without a timer there is no deadline to top up by: a short fill_or_kill payment fails it at once.
    const short = await createFixedInvoice(database.db, merchantId, "USDTT", { timer: false });
    await pay(database.db, short, short.invoice.senderAmount! - 2n * oneUnit);
    await confirm(database.db, "USDTT");
    expect((await reload(short.id)).invoice.statusReason).toBe("underpaid");
  });

  it("accumulates partial payments on good_until_expired until the amount is reached", async () => {
    const invoice = await createFixedInvoice(database.db, merchantId, "BTC", { type: "good_until_expired" });
    const due = invoice.invoice.senderAmount!;
    const first = due / 3n;
    await pay(database.db, invoice, first);
    await confirm(database.db, "BTC");
    let current = await reload(invoice.id);
    expect(current.status).toBe("pending");
    expect(current.invoice.statusReason).toBe("awaiting_remainder");
    expect(current.invoice.confirmedAmount).toBe(first);

    await pay(database.db, invoice, due - first);
    await confirm(database.db, "BTC");
    current = await reload(invoice.id);
    expect(current.status).toBe("confirmed");
    expect(current.invoice.confirmedAmount).toBe(due);
  });

  it("waits for every payment in flight before judging the amount", async () => {
    const invoice = await createFixedInvoice(database.db, merchantId, "DOGE");
    const due = invoice.invoice.senderAmount!;
    const half = due / 2n;
    await pay(database.db, invoice, half);
    await pay(database.db, invoice, due - half);
    await confirm(database.db, "DOGE");
    expect((await reload(invoice.id)).invoice.statusReason).toBe("paid");
  });

  it("expires an invoice with nothing paid as failed, by the durable expiry job", async () => {
    const clock = testClock();
    const invoice = await createFixedInvoice(database.db, merchantId, "BTC", {}, { ...settings, clock });
    clock.advance(settings.timerSeconds - 60);
    await runDueJobs(database.db, handlers, { clock });
    expect((await reload(invoice.id)).status).toBe("pending"); // a minute before its deadline
    clock.advance(61);
    await runDueJobs(database.db, handlers, { clock });
    const expired = await reload(invoice.id);
    expect(expired.status).toBe("failed");
    expect(expired.invoice.statusReason).toBe("expired");
  });

  it("fails a partly paid good_until_expired invoice at its deadline and mails refund instructions", async () => {
    const clock = testClock();
    const invoice = await createFixedInvoice(
      database.db,
      merchantId,
      "BTC",
      { type: "good_until_expired" },
      { ...settings, clock },
    );
    await pay(database.db, invoice, invoice.invoice.senderAmount! / 2n, clock);
    await confirm(database.db, "BTC", clock);
    expect((await reload(invoice.id)).invoice.statusReason).toBe("awaiting_remainder");
    clock.advance(settings.timerSeconds + 1);
    await runDueJobs(database.db, handlers, { clock });
    const failed = await reload(invoice.id);
    expect(failed.status).toBe("failed");
    expect(failed.invoice.statusReason).toBe("partially_paid");
    expect((await mailsFor(invoice.id)).map((m) => m.kind)).toContain("refund_partial");
  });

  it("credits a payment that arrives after expiry, flags it late, and never loses it", async () => {
    const clock = testClock();
    const invoice = await createFixedInvoice(database.db, merchantId, "ETH", {}, { ...settings, clock });
    clock.advance(settings.timerSeconds + 1);
    await runDueJobs(database.db, handlers, { clock });
    expect((await reload(invoice.id)).status).toBe("failed");
    const before = await balance("EUR");
    await pay(database.db, invoice, invoice.invoice.senderAmount!, clock);
    await confirm(database.db, "ETH", clock);
    const late = await reload(invoice.id);
    expect(late.status).toBe("failed");
    expect(late.invoice.confirmedAmount).toBe(invoice.invoice.senderAmount);
    expect(await balance("EUR")).toBe(before + late.invoice.creditedAmount);
    expect((await mailsFor(invoice.id)).map((m) => m.kind)).toContain("late_payment");
  });

  it("cancels created, pending and processing invoices of the merchant's own, and credits a payment in flight as late", async () => {
    const status = async (foreignId: string) =>
      (await database.db.query.transactions.findFirst({
        where: (t, { and, eq }) => and(eq(t.merchantId, merchantId), eq(t.foreignId, foreignId)),
      }))!.status;
    const created = await createInvoice(database.db, {
      merchantId,
      request: invoiceRequest({ timer: false }),
      settings,
    });
    await cancelInvoice(database.db, { merchantId, foreignId: created.foreignId });
    expect(await status(created.foreignId)).toBe("cancelled");

    const pending = await createFixedInvoice(database.db, merchantId, "BTC");
    await cancelInvoice(database.db, { merchantId, foreignId: pending.foreignId });
    expect(await status(pending.foreignId)).toBe("cancelled");

    // Processing: the public API allows it. The payment on its way still reaches the merchant, flagged late.
    const paying = await createFixedInvoice(database.db, merchantId, "BTC");
    await pay(database.db, paying, paying.invoice.senderAmount!);
    await expect(
      cancelInvoice(database.db, { merchantId: merchantId + 999, foreignId: paying.foreignId }),
    ).rejects.toMatchObject({ code: "not_found" });
    await cancelInvoice(database.db, { merchantId, foreignId: paying.foreignId });
    expect(await status(paying.foreignId)).toBe("cancelled");
    const before = await balance("EUR");
    await confirm(database.db, "BTC");
    const late = await reload(paying.id);
    expect(late.status).toBe("cancelled");
    expect(late.invoice.confirmedAmount).toBe(paying.invoice.senderAmount);
    expect(late.invoice.creditedAmount > 0n).toBe(true);
    expect(await balance("EUR")).toBe(before + late.invoice.creditedAmount);
    expect((await mailsFor(paying.id)).map((m) => m.kind)).toContain("late_payment");
    expect(await timeline(paying.id)).toEqual([
      "pending:timer_started",
      "pending:currency_fixed",
      "processing:payment_seen",
      "cancelled:cancelled_by_merchant",
    ]);

    // Confirmed, failed and cancelled ones are refused in the public API's shape.
    const paid = await createFixedInvoice(database.db, merchantId, "LTC");
    await pay(database.db, paid, paid.invoice.senderAmount!);
    await confirm(database.db, "LTC");
    const clock = testClock();
    const failed = await createInvoice(database.db, { merchantId, request: invoiceRequest(), settings });
    clock.advance(settings.timerSeconds + 1);
    await runDueJobs(database.db, handlers, { clock });
    expect(await status(failed.foreignId)).toBe("failed");
    for (const foreignId of [paid.foreignId, failed.foreignId, paying.foreignId]) {
      await expect(cancelInvoice(database.db, { merchantId, foreignId })).rejects.toMatchObject({
        code: "validation_failed",
        fields: { error: "Invoice cannot be cancelled in its current state.", code: "invalid_invoice_state" },
      });
    }
    expect(await status(paid.foreignId)).toBe("confirmed");
  });

  it("gives every invoice its own never-reused address, and XRP a shared address with a unique tag", async () => {
    const btc = await Promise.all(
      Array.from({ length: 8 }, () => createFixedInvoice(database.db, merchantId, "BTC")),
    );
    const addresses = new Set(btc.map((i) => i.address!.address));
    expect(addresses.size).toBe(8);
    const eth = await createFixedInvoice(database.db, merchantId, "ETH");
    const usdt = await createFixedInvoice(database.db, merchantId, "USDTE");
    expect(eth.address!.address).not.toBe(usdt.address!.address); // tokens share the network's counter

    const xrp1 = await createFixedInvoice(database.db, merchantId, "XRP");
    const xrp2 = await createFixedInvoice(database.db, merchantId, "XRP");
    expect(xrp1.address!.address).toBe(xrp2.address!.address);
    expect(xrp1.address!.tag).not.toBe(xrp2.address!.tag);
    // Without its tag an XRP payment cannot be told apart: it is not matched to an invoice.
    const untagged = await pay(
      database.db,
      { address: { ...xrp1.address!, tag: "" } },
      xrp1.invoice.senderAmount!,
    );
    expect(untagged.isRecognized).toBe(false);
    const tagged = await pay(database.db, xrp1, xrp1.invoice.senderAmount!);
    expect(tagged.isRecognized).toBe(true);
  });

  it("keeps the ledger balanced through all of the above", async () => {
    expect(await ledgerInvariants(database.db)).toEqual({
      nonZeroCurrencies: [],
      accountsNotMatchingEntries: 0,
      negativeMerchantBalances: 0,
    });
  });
});

describe(`invoice foreign_id uniqueness on ${testDriver}`, () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());

  it("creates exactly one invoice from racing requests with one foreign_id", async () => {
    const { merchantId } = await createMerchant(database.db, database.box, {
      name: "Race",
      email: "race@example.com",
      password: "long password 1",
    });
    const request = invoiceRequest({ foreign_id: "same-order" });
    const results = await Promise.allSettled(
      Array.from({ length: 12 }, () => createInvoice(database.db, { merchantId, request, settings })),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const result of results.filter((r) => r.status === "rejected")) {
      expect((result as PromiseRejectedResult).reason).toMatchObject({
        code: "validation_failed",
        fields: { foreign_id: "The foreign id has already been taken." },
      });
    }
    // The same foreign_id is free for another merchant.
    const other = await createMerchant(database.db, database.box, {
      name: "Other",
      email: "other@example.com",
      password: "long password 1",
    });
    await expect(
      createInvoice(database.db, { merchantId: other.merchantId, request, settings }),
    ).resolves.toBeDefined();
  });
});
