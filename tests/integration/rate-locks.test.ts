import { and, asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { checkoutView } from "@/lib/checkout/checkout-view";
import { openCheckout } from "@/lib/checkout/open-checkout";
import { emails, invoices, jobs, rates } from "@/lib/db/schema";
import { createInvoice } from "@/lib/invoices/create-invoice";
import { fixInvoiceCurrency } from "@/lib/invoices/fix-invoice-currency";
import { loadInvoiceById } from "@/lib/invoices/load-invoice";
import { needsNewPriceAt } from "@/lib/invoices/reprice-invoice";
import { toInvoiceResponse } from "@/lib/invoices/to-invoice-response";
import { runDueJobs } from "@/lib/jobs/runner";
import { divide, formatAmount, parseDecimal } from "@/lib/money";
import { DEFAULT_USD_PRICES, INSTALLATION_PRICES, setUsdPrice } from "@/lib/rates/rates";
import { previewRefund } from "@/lib/refunds/preview-refund";
import { describeTransaction } from "@/lib/transactions/describe-transaction";
import { testClock } from "../support/clock";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import {
  confirm,
  createFixedInvoice,
  handlers,
  invoiceRequest,
  pay,
  pricing,
  settings,
  testKeys,
} from "../support/invoices";
import { createTestMerchant } from "../support/merchants";

/**
 * Rate locks expire (DESIGN.md section 3): the locked rate covers the invoiced amount
 * while the lock lives; an excess, a payment to a closed invoice and a payment after the lock
 * expired convert at the rate of the moment the payment was seen. Expected credits are computed
 * here from the prices and the spread, independently of the conversion code.
 */
const LOCKED_BTC = parseDecimal("65000");
const FALLEN_BTC = parseDecimal("48750"); // 25% lower
const EUR = parseDecimal("1.08");
/** EUR's precision: 8 fraction digits, as the public API's fiat (credits are rounded to it). */
const EUR_UNIT = 1n;

const INVOICED = parseDecimal("100"); // EUR, the default of the test invoices

/** EUR worth, before the deposit fee, of BTC paid at the given USD prices (less the spread; one rounding). */
function expectedGross(parts: { btc: bigint; usdPrice: bigint }[]): bigint {
  const worth = parts.reduce((sum, p) => sum + p.btc * p.usdPrice, 0n);
  return divide(worth * 995_000n, EUR * 1_000_000n * EUR_UNIT, "down") * EUR_UNIT;
}

/** EUR credited, net of the 0.5% deposit fee, for BTC paid at the given USD prices (one rounding). */
function expectedNet(parts: { btc: bigint; usdPrice: bigint }[]): bigint {
  const gross = expectedGross(parts);
  const fee = divide(gross * 5_000n, 1_000_000n * EUR_UNIT, "up") * EUR_UNIT;
  return gross - fee;
}

/** BTC asked for `eur` at a USD price of BTC: EUR × 1.08 / (price × 0.995), rounded up to a satoshi. */
function expectedDue(eur: bigint, usdPrice: bigint): bigint {
  return divide(eur * EUR * 1_000_000n, usdPrice * 995_000n, "up");
}

describe(`rate locks on ${testDriver}`, () => {
  let database: TestDatabase;
  let merchantId: number;

  const credited = async (id: number) => (await loadInvoiceById(database.db, id))!.invoice.creditedAmount;
  const fixed = async (overrides: Record<string, unknown> = {}) => {
    const invoice = await createFixedInvoice(database.db, merchantId, "BTC", overrides);
    return { invoice, due: invoice.invoice.senderAmount! };
  };
  const fallPrice = () =>
    setUsdPrice(database.db, { merchantId: INSTALLATION_PRICES, currency: "BTC", price: FALLEN_BTC });
  const reload = async (id: number) => (await loadInvoiceById(database.db, id))!;
  const mailsFor = (id: number) =>
    database.db.select().from(emails).where(eq(emails.transactionId, id)).orderBy(asc(emails.id));
  /** Moves the rate's fixing past the lock of an invoice without a timer (900 s by default). */
  const outliveLock = (id: number) =>
    database.db
      .update(invoices)
      .set({ fixedAt: sql`now() - interval '901 seconds'` })
      .where(eq(invoices.transactionId, id));
  const open = async (token: string) => {
    const record = await openCheckout(database.db, { token, settings, keys: testKeys });
    return { record, view: await checkoutView(database.db, record, settings) };
  };
  const short = (amount: bigint) => formatAmount(amount).replace(/\.?0+$/, "");

  beforeAll(async () => {
    database = await createTestDatabase();
    merchantId = await createTestMerchant(database, "Locks");
  });
  afterAll(() => database.drop());
  beforeEach(() =>
    setUsdPrice(database.db, {
      merchantId: INSTALLATION_PRICES,
      currency: "BTC",
      price: parseDecimal(DEFAULT_USD_PRICES.BTC!),
    }),
  );

  it("credits a payment within the lock at the locked rate, even after the price moved", async () => {
    const { invoice, due } = await fixed();
    await fallPrice();
    await pay(database.db, invoice, due);
    await confirm(database.db, "BTC");
    expect(await credited(invoice.id)).toBe(expectedNet([{ btc: due, usdPrice: LOCKED_BTC }]));
    expect((await loadInvoiceById(database.db, invoice.id))!.status).toBe("confirmed");
  });

  it("credits an overpayment's excess at the rate of the moment it was seen", async () => {
    const { invoice, due } = await fixed();
    await fallPrice();
    const excess = parseDecimal("0.001");
    await pay(database.db, invoice, due + excess);
    await confirm(database.db, "BTC");
    expect(await credited(invoice.id)).toBe(
      expectedNet([
        { btc: due, usdPrice: LOCKED_BTC },
        { btc: excess, usdPrice: FALLEN_BTC },
      ]),
    );
    const info = await describeTransaction(database.db, invoice.id);
    const payments = info.additional_details!.payments as Record<string, unknown>[];
    expect(payments).toHaveLength(1);
    // Display: 65000 × 0.995 / 1.08 = 59884.259…; 48750 × 0.995 / 1.08 = 44913.194…
    expect(payments[0]).toMatchObject({
      locked_amount: formatAmount(due),
      amount: formatAmount(due + excess),
      locked_rate: "59884.25925925",
      rate: "44913.19444444",
    });
  });

  it("values a refund of an overpayment's excess at the rate the excess was credited at, not the lock's", async () => {
    const { invoice, due } = await fixed();
    await fallPrice();
    const excess = parseDecimal("0.001");
    await pay(database.db, invoice, due + excess);
    await confirm(database.db, "BTC");
    const preview = await previewRefund(database.db, {
      merchantId,
      invoiceId: invoice.id,
      terms: { amount: { kind: "excess" }, rateBasis: "payment", feePaidBy: "merchant", currencies: ["LTC"] },
      pricing,
    });
    expect(preview.amount).toBe(excess);
    expect(preview.paymentValue).toBe(expectedGross([{ btc: excess, usdPrice: FALLEN_BTC }]));
  });

  it("values a refund of a payment made after the invoice expired at the rate it was credited at", async () => {
    const clock = testClock();
    const invoice = await createFixedInvoice(database.db, merchantId, "BTC", {}, { ...settings, clock });
    const due = invoice.invoice.senderAmount!;
    clock.advance(settings.timerSeconds + 1);
    await runDueJobs(database.db, handlers, { clock });
    // The price falls; the customer pays the old amount all the same, to the expired invoice.
    await fallPrice();
    await pay(database.db, invoice, due, clock);
    await confirm(database.db, "BTC", clock);
    expect((await reload(invoice.id)).invoice.statusReason).toBe("expired");
    const preview = await previewRefund(database.db, {
      merchantId,
      invoiceId: invoice.id,
      terms: { amount: { kind: "full" }, rateBasis: "payment", feePaidBy: "merchant", currencies: ["LTC"] },
      pricing,
      clock,
    });
    expect(preview.amount).toBe(due);
    // What the late payment was credited at, not the 100 EUR its amount was worth under the old lock.
    expect(preview.paymentValue).toBe(expectedGross([{ btc: due, usdPrice: FALLEN_BTC }]));
    expect(preview.paymentValue).toBeLessThan(parseDecimal("80"));
  });

  it("credits a payment after the lock expired at the rate of the moment", async () => {
    const { invoice, due } = await fixed();
    await database.db
      .update(invoices)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(invoices.transactionId, invoice.id));
    await fallPrice();
    await pay(database.db, invoice, due);
    await confirm(database.db, "BTC");
    expect(await credited(invoice.id)).toBe(expectedNet([{ btc: due, usdPrice: FALLEN_BTC }]));
  });

  it("credits 1 BTC paid to a closed invoice's old address at the new price (the issue's case)", async () => {
    const { invoice, due } = await fixed();
    await pay(database.db, invoice, due);
    await confirm(database.db, "BTC");
    const before = await credited(invoice.id);
    expect((await loadInvoiceById(database.db, invoice.id))!.status).toBe("confirmed");
    await fallPrice();
    await pay(database.db, invoice, parseDecimal("1"));
    await confirm(database.db, "BTC");
    const late = (await credited(invoice.id)) - before;
    // 1 × 48750 × 0.995 / 1.08 = 44913.19 EUR less the fee, not the stale lock's 59,884.25.
    expect(late).toBe(expectedNet([{ btc: parseDecimal("1"), usdPrice: FALLEN_BTC }]));
    expect(late < parseDecimal("45000")).toBe(true);
  });

  it("holds the lock of an invoice without a timer for the fix period only", async () => {
    const within = await fixed({ timer: false });
    await fallPrice();
    await pay(database.db, within.invoice, within.due);
    await confirm(database.db, "BTC");
    expect(await credited(within.invoice.id)).toBe(expectedNet([{ btc: within.due, usdPrice: LOCKED_BTC }]));

    await setUsdPrice(database.db, { merchantId: INSTALLATION_PRICES, currency: "BTC", price: LOCKED_BTC });
    const after = await fixed({ timer: false });
    // The fix period (KASSA_RATE_LOCK_SECONDS, by default the 900 s of a timer) has passed.
    await database.db
      .update(invoices)
      .set({ fixedAt: sql`now() - interval '901 seconds'` })
      .where(eq(invoices.transactionId, after.invoice.id));
    await fallPrice();
    await pay(database.db, after.invoice, after.due);
    await confirm(database.db, "BTC");
    expect(await credited(after.invoice.id)).toBe(expectedNet([{ btc: after.due, usdPrice: FALLEN_BTC }]));
  });

  it("does not confirm the old amount paid after the lock expired (the reviewer's case)", async () => {
    const { invoice, due } = await fixed({ timer: false });
    await outliveLock(invoice.id);
    await fallPrice();
    await pay(database.db, invoice, due);
    await confirm(database.db, "BTC");
    const settled = await reload(invoice.id);
    const worth = expectedGross([{ btc: due, usdPrice: FALLEN_BTC }]);
    expect(worth < INVOICED).toBe(true); // about 75 EUR
    expect(settled.invoice.creditedAmount).toBe(expectedNet([{ btc: due, usdPrice: FALLEN_BTC }]));
    expect([settled.status, settled.invoice.statusReason]).toEqual(["failed", "underpaid"]);
    const mails = await mailsFor(invoice.id);
    expect(mails.map((m) => m.kind)).toEqual(["refund_underpaid"]);
    expect(mails[0]!.body).toContain(
      `We received ${short(due)} BTC (worth ${short(worth)} EUR when it arrived), but the invoice asked for 100 EUR`,
    );
  });

  it("confirms as overpaid, by value, the old amount paid after the lock when the price rose", async () => {
    const { invoice, due } = await fixed({ timer: false });
    await outliveLock(invoice.id);
    const risen = parseDecimal("81250"); // 25% higher
    await setUsdPrice(database.db, { merchantId: INSTALLATION_PRICES, currency: "BTC", price: risen });
    await pay(database.db, invoice, due);
    await confirm(database.db, "BTC");
    const settled = await reload(invoice.id);
    expect([settled.status, settled.invoice.statusReason]).toEqual(["confirmed", "overpaid"]);
    const worth = expectedGross([{ btc: due, usdPrice: risen }]);
    const mails = await mailsFor(invoice.id);
    expect(mails.map((m) => m.kind)).toEqual(["receipt", "refund_overpaid"]);
    expect(mails[1]!.body).toContain(`The extra, worth ${short(worth - INVOICED)} EUR, will be refunded`);
  });

  it("asks a good_until_expired invoice's remainder at the current rate after the lock expired", async () => {
    const { invoice, due } = await fixed({ timer: false, type: "good_until_expired" });
    await outliveLock(invoice.id);
    await fallPrice();
    await pay(database.db, invoice, due);
    await confirm(database.db, "BTC");
    const waiting = await reload(invoice.id);
    expect([waiting.status, waiting.invoice.statusReason]).toEqual(["pending", "awaiting_remainder"]);

    const { view } = await open(invoice.invoice.token);
    expect(view.sender_amount).toBe(formatAmount(due)); // paid to: not re-priced
    const worth = expectedGross([{ btc: due, usdPrice: FALLEN_BTC }]);
    const remainder = expectedDue(INVOICED - worth, FALLEN_BTC);
    expect(view.remaining_amount).toBe(formatAmount(remainder));
    expect(view.payment_uri).toContain(`amount=${short(remainder)}`);

    await pay(database.db, invoice, remainder);
    await confirm(database.db, "BTC");
    const paid = await reload(invoice.id);
    expect([paid.status, paid.invoice.statusReason]).toEqual(["confirmed", "paid"]);
    expect(paid.invoice.creditedAmount).toBe(
      expectedNet([{ btc: due, usdPrice: FALLEN_BTC }]) +
        expectedNet([{ btc: remainder, usdPrice: FALLEN_BTC }]),
    );
    expect(
      expectedGross([{ btc: due, usdPrice: FALLEN_BTC }]) +
        expectedGross([{ btc: remainder, usdPrice: FALLEN_BTC }]) >=
        INVOICED,
    ).toBe(true);
  });

  it("re-prices an unpaid invoice whose lock expired before the checkout shows it", async () => {
    const { invoice, due } = await fixed({ timer: false });
    expect(due).toBe(expectedDue(INVOICED, LOCKED_BTC));
    await outliveLock(invoice.id);
    await fallPrice();
    const before = Date.now();
    const { record, view } = await open(invoice.invoice.token);
    const fresh = expectedDue(INVOICED, FALLEN_BTC);
    expect(view.sender_amount).toBe(formatAmount(fresh));
    expect(view.remaining_amount).toBe(formatAmount(fresh));
    expect(view.payment_uri).toContain(`amount=${short(fresh)}`);
    expect(view.rate).toBe("44913.19444444"); // 48750 × 0.995 / 1.08
    expect(view.address).toBe(invoice.address!.address); // one address per invoice: the same one
    expect(record.invoice.fixedAt!.getTime()).toBeGreaterThanOrEqual(before - 1000);
    // The merchant's API sees the new figures.
    const response = toInvoiceResponse(await reload(invoice.id), "https://kassa.example");
    expect(response).toMatchObject({
      sender_amount: formatAmount(fresh),
      fixed_at: Math.floor(record.invoice.fixedAt!.getTime() / 1000),
      release_at: null,
      seconds_left: null,
    });

    // Opening it again (a reload, a second tab) within the new lock changes nothing.
    const again = await open(invoice.invoice.token);
    expect(again.record.invoice.fixedAt).toEqual(record.invoice.fixedAt);
    expect(again.view.sender_amount).toBe(formatAmount(fresh));

    await pay(database.db, invoice, fresh);
    await confirm(database.db, "BTC");
    const settled = await reload(invoice.id);
    expect([settled.status, settled.invoice.statusReason]).toEqual(["confirmed", "paid"]);
    expect(settled.invoice.creditedAmount).toBe(expectedNet([{ btc: fresh, usdPrice: FALLEN_BTC }]));
  });

  it("tells a page left open when its lock ends, and not once anything was paid", async () => {
    const { invoice } = await fixed({ timer: false });
    const record = await reload(invoice.id);
    // Without a timer the lock is the fix period after fixing: 900 s by default.
    expect(needsNewPriceAt(record, settings)).toBe(record.invoice.fixedAt!.getTime() + 900_000);
    await pay(database.db, invoice, parseDecimal("0.0001"));
    expect(needsNewPriceAt(await reload(invoice.id), settings)).toBeNull();
  });

  it("re-prices an untimed invoice when its lock ends with no page open, by its job; without a rate, a minute later", async () => {
    const clock = testClock();
    const clocked = { ...settings, clock };
    const invoice = await createFixedInvoice(database.db, merchantId, "BTC", { timer: false }, clocked);
    const fixedAt = invoice.invoice.fixedAt!.getTime();
    const due = invoice.invoice.senderAmount!;
    // No rate at the lock's end (900 s): the price stands, and the job looks again a minute later.
    await database.db.delete(rates).where(eq(rates.currency, "BTC"));
    clock.advance(901);
    await runDueJobs(database.db, handlers, { clock });
    expect((await reload(invoice.id)).invoice).toMatchObject({
      senderAmount: due,
      fixedAt: new Date(fixedAt),
    });

    await fallPrice();
    clock.advance(60);
    await runDueJobs(database.db, handlers, { clock });
    const repriced = await reload(invoice.id);
    expect(repriced.invoice.senderAmount).toBe(expectedDue(INVOICED, FALLEN_BTC));
    const newFixedAt = repriced.invoice.fixedAt!.getTime();
    expect(newFixedAt).toBeGreaterThanOrEqual(fixedAt + 961_000);
    // The new lock has its own job, due when it ends.
    const queued = await database.db
      .select({ runAt: jobs.runAt })
      .from(jobs)
      .where(
        and(
          eq(jobs.queue, "invoice.reprice"),
          eq(jobs.status, "queued"),
          sql`${jobs.payload}->>'invoiceId' = ${String(invoice.id)}`,
        ),
      );
    expect(queued.map((job) => job.runAt.getTime())).toEqual([newFixedAt + 900_000]);
  });

  it("re-prices once when two tabs open an expired lock at the same time", async () => {
    const { invoice } = await fixed({ timer: false });
    await outliveLock(invoice.id);
    await fallPrice();
    const [a, b] = await Promise.all([open(invoice.invoice.token), open(invoice.invoice.token)]);
    const stored = await reload(invoice.id);
    expect(a.record.invoice.fixedAt).toEqual(stored.invoice.fixedAt);
    expect(b.record.invoice.fixedAt).toEqual(stored.invoice.fixedAt);
    expect([a.view.sender_amount, b.view.sender_amount]).toEqual([
      formatAmount(expectedDue(INVOICED, FALLEN_BTC)),
      formatAmount(expectedDue(INVOICED, FALLEN_BTC)),
    ]);
  });

  it("re-prices when the customer chooses the same currency again after the lock expired", async () => {
    const { invoice } = await fixed({ timer: false });
    await outliveLock(invoice.id);
    await fallPrice();
    const chosen = await fixInvoiceCurrency(database.db, {
      token: invoice.invoice.token,
      currency: "BTC",
      settings,
      keys: testKeys,
    });
    expect(chosen.invoice.senderAmount).toBe(expectedDue(INVOICED, FALLEN_BTC));
    expect(chosen.address!.address).toBe(invoice.address!.address);
  });

  it("keeps the price of an invoice within its lock, and of one already paid to", async () => {
    const { invoice, due } = await fixed({ timer: false });
    await fallPrice();
    const within = await open(invoice.invoice.token);
    expect(within.view.sender_amount).toBe(formatAmount(due));
    expect(within.record.invoice.fixedAt).toEqual(invoice.invoice.fixedAt);

    await pay(database.db, invoice, due / 2n);
    await outliveLock(invoice.id);
    const paidTo = await open(invoice.invoice.token);
    expect(paidTo.view.sender_amount).toBe(formatAmount(due));
  });

  it("gives a merchant-fixed currency opened after its lock a fresh price", async () => {
    const created = await createInvoice(database.db, {
      merchantId,
      request: invoiceRequest({ timer: false, sender_currency: "BTC" }),
      settings,
    });
    expect(created.invoice.senderAmount).toBe(expectedDue(INVOICED, LOCKED_BTC));
    await outliveLock(created.id);
    await fallPrice();
    const { record, view } = await open(created.invoice.token);
    expect(record.status).toBe("pending");
    expect(view.address).not.toBeNull();
    expect(view.sender_amount).toBe(formatAmount(expectedDue(INVOICED, FALLEN_BTC)));
    expect(Date.now() - record.invoice.fixedAt!.getTime()).toBeLessThan(60_000);
  });

  it("keeps the price of a merchant-fixed currency opened within its lock", async () => {
    const created = await createInvoice(database.db, {
      merchantId,
      request: invoiceRequest({ timer: false, sender_currency: "BTC" }),
      settings,
    });
    await fallPrice();
    const { record, view } = await open(created.invoice.token);
    expect(view.sender_amount).toBe(formatAmount(expectedDue(INVOICED, LOCKED_BTC)));
    expect(record.invoice.fixedAt).toEqual(created.invoice.fixedAt);
  });

  it("prices afresh an invoice without a stored rate (an old rate of 0) instead of failing", async () => {
    const created = await createInvoice(database.db, {
      merchantId,
      request: invoiceRequest({ sender_currency: "BTC" }),
      settings,
      keys: testKeys,
    });
    await database.db
      .update(invoices)
      .set({ rateNumerator: null, rateDenominator: null })
      .where(eq(invoices.transactionId, created.id));
    await fallPrice();
    const chosen = await fixInvoiceCurrency(database.db, {
      token: created.invoice.token,
      currency: "BTC",
      settings,
      keys: testKeys,
    });
    expect(chosen.status).toBe("pending");
    expect(chosen.invoice.senderAmount).toBe(expectedDue(INVOICED, FALLEN_BTC));

    // A pending one without a stored rate is re-priced by the checkout too.
    await database.db
      .update(invoices)
      .set({ rateNumerator: null, rateDenominator: null })
      .where(eq(invoices.transactionId, created.id));
    await setUsdPrice(database.db, { merchantId: INSTALLATION_PRICES, currency: "BTC", price: LOCKED_BTC });
    const { view } = await open(created.invoice.token);
    expect(view.sender_amount).toBe(formatAmount(expectedDue(INVOICED, LOCKED_BTC)));
  });
});
