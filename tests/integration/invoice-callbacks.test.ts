import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setCallbackUrl } from "@/lib/callbacks/set-callback-url";
import { getCurrency } from "@/lib/currencies/registry";
import { callbacks } from "@/lib/db/schema";
import { cancelInvoice } from "@/lib/invoices/cancel-invoice";
import type { InvoiceRecord } from "@/lib/invoices/load-invoice";
import { runDueJobs } from "@/lib/jobs/runner";
import { listBalances } from "@/lib/ledger/list-balances";
import { createMerchant } from "@/lib/merchants/create-merchant";
import { formatAmount, parseDecimal } from "@/lib/money";
import { describeInvoice } from "@/lib/transactions/describe-invoice";
import { testClock } from "../support/clock";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { confirm, createFixedInvoice, handlers, pay, settings } from "../support/invoices";
import { checkPublicShape, PUBLIC_ROOT_KEYS } from "../support/public-invoice-callback";
import { startReceiver } from "../support/receiver";

/**
 * The invoice callbacks a merchant receives at each step of an invoice's life, each checked against
 * the public API's documented shape (tests/support/public-invoice-callback.ts) and its figures
 * against an independent computation from the invoice's locked rate and the registry's fee.
 */
describe(`invoice callbacks, step by step, on ${testDriver}`, () => {
  let database: TestDatabase;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let merchantId: number;

  const callbacksOf = async (id: number) =>
    (
      await database.db
        .select()
        .from(callbacks)
        .where(eq(callbacks.transactionId, id))
        .orderBy(asc(callbacks.id))
    ).map((c) => {
      // Every body, at every step, has the public shape before its figures are looked at.
      const { issues, keys, data } = checkPublicShape(c.body);
      expect(issues).toEqual([]);
      expect(keys).toEqual(PUBLIC_ROOT_KEYS);
      return { event: c.event, body: data };
    });
  const eurBalance = async () =>
    (await listBalances(database.db, merchantId)).find((b) => b.currency === "EUR")?.balance ?? 0n;

  // Independent arithmetic in 10^-8 units: EUR has precision 8 (as the public API reports fiat), so no
  // further step; rounding is down for what the merchant gets and up for the fee.
  const floorDiv = (a: bigint, b: bigint) => a / b;
  const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;
  /** What `paid` (pay currency) brings at the invoice's locked rate, rounded down to EUR's precision. */
  const grossAtLock = (invoice: InvoiceRecord, paid: bigint) =>
    floorDiv(paid * invoice.invoice.rateNumerator!, invoice.invoice.rateDenominator!);
  /** The pay currency's deposit fee on a gross EUR amount, rounded up to EUR's precision. */
  const feeOn = (gross: bigint, payCurrency: string) =>
    ceilDiv(gross * BigInt(getCurrency(payCurrency).depositFeePpm), 1_000_000n);
  const unix = (date: Date | null) => Math.floor(date!.getTime() / 1000);
  const nowSeconds = () => Math.floor(Date.now() / 1000);

  beforeAll(async () => {
    database = await createTestDatabase();
    receiver = await startReceiver();
    merchantId = (
      await createMerchant(database.db, database.box, {
        name: "Hooked shop",
        email: "hooked@example.com",
        password: "long password 1",
      })
    ).merchantId;
    await setCallbackUrl(database.db, { merchantId, url: receiver.url(), mode: "sandbox" });
  });
  afterAll(async () => {
    await receiver.close();
    await database.drop();
  });

  it("reports pending, processing and confirmed with the invoice's own status and the amounts of each step", async () => {
    const invoice = await createFixedInvoice(database.db, merchantId, "BTC");
    const due = invoice.invoice.senderAmount!;
    const expectedFee = feeOn(parseDecimal("100"), "BTC");
    const [pending] = await callbacksOf(invoice.id);
    expect(pending!.event).toBe("invoice.pending");
    expect(pending!.body).toEqual({
      id: invoice.id,
      foreign_id: invoice.foreignId,
      end_user_reference: invoice.endUserReference,
      type: "invoice",
      crypto_address: {
        id: invoice.address!.id,
        currency: "BTC",
        convert_to: "EUR",
        address: invoice.address!.address,
        tag: null,
      },
      currency_sent: { currency: "BTC", amount: formatAmount(due), remaining_amount: formatAmount(due) },
      // Nothing paid yet: what an exact payment brings, the invoice amount, and after the 0.5 % fee.
      currency_received: {
        currency: "EUR",
        amount: "100.00000000",
        amount_minus_fee: formatAmount(parseDecimal("100") - expectedFee),
      },
      transactions: [],
      fees: [],
      error: "",
      status: "pending",
      fixed_at: unix(invoice.invoice.fixedAt),
      expires_at: unix(invoice.invoice.expiresAt),
      additional_details: expect.objectContaining({
        invoice_status: "pending",
        status_reason: "currency_fixed",
      }),
    });

    const before = nowSeconds();
    const { txid } = await pay(database.db, invoice, due);
    const after = nowSeconds();
    const gross = grossAtLock(invoice, due);
    // The amount due was rounded up, never short: the coins are worth a little more than 100 EUR.
    expect(gross > parseDecimal("100")).toBe(true);
    const processing = (await callbacksOf(invoice.id))[1]!;
    expect(processing.event).toBe("invoice.processing");
    expect(processing.body).toMatchObject({
      status: "processing",
      error: "",
      currency_sent: { currency: "BTC", amount: formatAmount(due), remaining_amount: "0.00000000" },
      // While the exact payment confirms: the invoice amount, as the public API reports it (not the
      // coins' converted worth, whose rounding shows once credited).
      currency_received: {
        currency: "EUR",
        amount: "100.00000000",
        amount_minus_fee: formatAmount(parseDecimal("100") - expectedFee),
      },
      transactions: [
        {
          currency: "BTC",
          transaction_type: "blockchain",
          type: "deposit",
          address: invoice.address!.address,
          amount: formatAmount(due),
          txid,
          confirmations: "0",
        },
      ],
      fees: [],
      fixed_at: unix(invoice.invoice.fixedAt),
    });
    // transactions/info says the same of the same moment.
    expect((await describeInvoice(database.db, invoice.id)).currency_received).toEqual(
      processing.body.currency_received,
    );
    // While processing, the deadline in force is the 24-hour processing timer, as the public API's is.
    expect(processing.body.expires_at).toBeGreaterThanOrEqual(before + 24 * 3600);
    expect(processing.body.expires_at).toBeLessThanOrEqual(after + 24 * 3600);

    const balanceBefore = await eurBalance();
    await confirm(database.db, "BTC");
    const all = await callbacksOf(invoice.id);
    expect(all.map((c) => c.event)).toEqual(["invoice.pending", "invoice.processing", "invoice.confirmed"]);
    const confirmed = all[2]!.body;
    const fee = feeOn(gross, "BTC");
    expect(confirmed).toMatchObject({
      status: "confirmed",
      error: "",
      currency_sent: { amount: formatAmount(due), remaining_amount: "0.00000000" },
      currency_received: {
        currency: "EUR",
        amount: formatAmount(gross),
        amount_minus_fee: formatAmount(gross - fee),
      },
      fees: [{ type: "fee_crypto_deposit", currency: "EUR", amount: formatAmount(fee) }],
      expires_at: unix(invoice.invoice.expiresAt),
    });
    expect(confirmed.transactions.map((t) => [t.transaction_type, t.amount])).toEqual([
      ["blockchain", formatAmount(due)],
      ["exchange", formatAmount(due)],
    ]);
    // What the callback says the merchant received is what the ledger credited.
    expect(await eurBalance()).toBe(balanceBefore + gross - fee);
  });

  it("keeps an underpaid fill_or_kill invoice open for a top-up until its deadline, then fails it with the public text", async () => {
    const clock = testClock();
    const invoice = await createFixedInvoice(database.db, merchantId, "LTC", {}, { ...settings, clock });
    const due = invoice.invoice.senderAmount!;
    const half = due / 2n;
    await pay(database.db, invoice, half, clock);
    await confirm(database.db, "LTC", clock);
    const gross = grossAtLock(invoice, half);
    const credited = {
      currency: "EUR",
      amount: formatAmount(gross),
      amount_minus_fee: formatAmount(gross - feeOn(gross, "LTC")),
    };
    let all = await callbacksOf(invoice.id);
    expect(all.map((c) => [c.event, c.body.status])).toEqual([
      ["invoice.pending", "pending"],
      ["invoice.processing", "processing"],
      ["invoice.pending", "pending"],
    ]);
    // Credited, and still payable: the remainder is asked, the amounts say what arrived.
    expect(all[2]!.body).toMatchObject({
      error: "",
      currency_sent: { amount: formatAmount(due), remaining_amount: formatAmount(due - half) },
      currency_received: credited,
      expires_at: unix(invoice.invoice.expiresAt),
    });

    clock.advance(settings.timerSeconds + 1);
    await runDueJobs(database.db, handlers, { clock });
    all = await callbacksOf(invoice.id);
    expect(all.map((c) => c.event)).toHaveLength(4);
    expect(all[3]!.event).toBe("invoice.failed");
    expect(all[3]!.body).toMatchObject({
      status: "failed",
      error: "Timer expired. User paid less than requested.",
      currency_sent: { amount: formatAmount(due), remaining_amount: formatAmount(due - half) },
      currency_received: credited,
      fees: [{ type: "fee_crypto_deposit", currency: "EUR", amount: formatAmount(feeOn(gross, "LTC")) }],
      additional_details: expect.objectContaining({ status_reason: "underpaid" }),
    });
  });

  it("reports each instalment of a good_until_expired invoice, and every credit of payments confirmed together", async () => {
    const invoice = await createFixedInvoice(database.db, merchantId, "BTC", { type: "good_until_expired" });
    const due = invoice.invoice.senderAmount!;
    const first = due / 3n;
    await pay(database.db, invoice, first);
    await confirm(database.db, "BTC");
    const afterFirst = (await callbacksOf(invoice.id)).at(-1)!;
    const grossFirst = grossAtLock(invoice, first);
    expect(afterFirst.event).toBe("invoice.pending");
    expect(afterFirst.body).toMatchObject({
      status: "pending",
      currency_sent: { remaining_amount: formatAmount(due - first) },
      currency_received: { amount: formatAmount(grossFirst) },
      fees: [{ amount: formatAmount(feeOn(grossFirst, "BTC")) }],
    });
    expect(afterFirst.body.transactions.filter((t) => t.transaction_type === "blockchain")).toHaveLength(1);

    // The rest in two payments that confirm in the same block: each credit is reported.
    const second = (due - first) / 2n;
    const third = due - first - second;
    await pay(database.db, invoice, second);
    await pay(database.db, invoice, third);
    await confirm(database.db, "BTC");
    const all = await callbacksOf(invoice.id);
    expect(all.map((c) => c.event)).toEqual([
      "invoice.pending",
      "invoice.processing",
      "invoice.pending",
      "invoice.processing",
      "invoice.payment_credited",
      "invoice.confirmed",
    ]);
    const [credit, done] = [all[4]!.body, all[5]!.body];
    const grossSecond = grossAtLock(invoice, second);
    const grossThird = grossAtLock(invoice, third);
    // While the third payment still awaits crediting it counts at its locked rate too.
    expect(credit).toMatchObject({
      status: "processing",
      currency_received: { amount: formatAmount(grossFirst + grossSecond + grossThird) },
      fees: [{ amount: formatAmount(feeOn(grossFirst, "BTC") + feeOn(grossSecond, "BTC")) }],
    });
    expect(done).toMatchObject({
      status: "confirmed",
      currency_sent: { amount: formatAmount(due), remaining_amount: "0.00000000" },
      currency_received: { amount: formatAmount(grossFirst + grossSecond + grossThird) },
    });
    expect(done.transactions.filter((t) => t.transaction_type === "blockchain").map((t) => t.amount)).toEqual(
      [first, second, third].map(formatAmount),
    );
  });

  it("fails an invoice nobody paid with the public text, showing what was asked", async () => {
    const clock = testClock();
    const invoice = await createFixedInvoice(database.db, merchantId, "BTC", {}, { ...settings, clock });
    clock.advance(settings.timerSeconds + 1);
    await runDueJobs(database.db, handlers, { clock });
    const all = await callbacksOf(invoice.id);
    expect(all.map((c) => c.event)).toEqual(["invoice.pending", "invoice.failed"]);
    const due = formatAmount(invoice.invoice.senderAmount!);
    expect(all[1]!.body).toMatchObject({
      status: "failed",
      error: "Timer expired. User not paid.",
      currency_sent: { currency: "BTC", amount: due, remaining_amount: due },
      currency_received: { currency: "EUR", amount: "100.00000000" },
      transactions: [],
      fees: [],
      fixed_at: unix(invoice.invoice.fixedAt),
      expires_at: unix(invoice.invoice.expiresAt),
    });
  });

  it("calls back for a payment credited after the invoice failed, with the late payment in its amounts", async () => {
    const clock = testClock();
    const invoice = await createFixedInvoice(database.db, merchantId, "ETH", {}, { ...settings, clock });
    clock.advance(settings.timerSeconds + 1);
    await runDueJobs(database.db, handlers, { clock });
    const balanceBefore = await eurBalance();
    const amount = parseDecimal("0.02");
    const { txid } = await pay(database.db, invoice, amount, clock);
    await confirm(database.db, "ETH", clock);
    const credited = (await eurBalance()) - balanceBefore;
    expect(credited > 0n).toBe(true);
    const all = await callbacksOf(invoice.id);
    expect(all.map((c) => c.event)).toEqual(["invoice.pending", "invoice.failed", "invoice.late_payment"]);
    const late = all[2]!.body;
    expect(late).toMatchObject({
      status: "failed",
      error: "Timer expired. User not paid.",
      // The invoice's status is unchanged; the amounts are the late payment's, as the ledger credited it.
      currency_received: { currency: "EUR", amount_minus_fee: formatAmount(credited) },
      transactions: [
        expect.objectContaining({ transaction_type: "blockchain", txid, amount: formatAmount(amount) }),
        expect.objectContaining({ transaction_type: "exchange", amount: formatAmount(amount) }),
      ],
      additional_details: expect.objectContaining({
        payments: [expect.objectContaining({ txid, is_late: true })],
      }),
    });
    const [fee] = late.fees;
    expect(parseDecimal(late.currency_received.amount) - parseDecimal(fee!.amount)).toBe(credited);
  });

  it("calls back for a payment credited after the merchant cancelled the invoice", async () => {
    const invoice = await createFixedInvoice(database.db, merchantId, "LTC");
    await cancelInvoice(database.db, { merchantId, foreignId: invoice.foreignId });
    const balanceBefore = await eurBalance();
    await pay(database.db, invoice, invoice.invoice.senderAmount!);
    await confirm(database.db, "LTC");
    const credited = (await eurBalance()) - balanceBefore;
    const all = await callbacksOf(invoice.id);
    expect(all.map((c) => c.event)).toEqual(["invoice.pending", "invoice.cancelled", "invoice.late_payment"]);
    expect(all[1]!.body).toMatchObject({ status: "cancelled", error: "Cancelled by the merchant." });
    expect(all[2]!.body).toMatchObject({
      status: "cancelled",
      error: "Cancelled by the merchant.",
      currency_received: { amount_minus_fee: formatAmount(credited) },
    });
  });

  it("fails an invoice whose payment stays unconfirmed for 24 hours, and reports the payment when it confirms late", async () => {
    const clock = testClock();
    const invoice = await createFixedInvoice(database.db, merchantId, "DOGE", {}, { ...settings, clock });
    const due = invoice.invoice.senderAmount!;
    await pay(database.db, invoice, due, clock);
    clock.advance(23 * 3600); // well past the 15-minute timer, which stopped when the payment was seen
    await runDueJobs(database.db, handlers, { clock });
    expect((await callbacksOf(invoice.id)).map((c) => c.body.status)).toEqual(["pending", "processing"]);

    clock.advance(3600 + 2);
    await runDueJobs(database.db, handlers, { clock });
    let all = await callbacksOf(invoice.id);
    expect(all.map((c) => c.event)).toEqual(["invoice.pending", "invoice.processing", "invoice.failed"]);
    expect(all[2]!.body).toMatchObject({
      status: "failed",
      error: "Timer expired. Transactions were in status processing too long.",
      currency_sent: { amount: formatAmount(due), remaining_amount: "0.00000000" },
      currency_received: { amount: formatAmount(grossAtLock(invoice, due)) },
      fees: [],
      additional_details: expect.objectContaining({ status_reason: "processing_expired" }),
    });

    await confirm(database.db, "DOGE", clock);
    all = await callbacksOf(invoice.id);
    expect(all.map((c) => c.event).at(-1)).toBe("invoice.late_payment");
    expect(all.at(-1)!.body).toMatchObject({ status: "failed", fees: [{ type: "fee_crypto_deposit" }] });
  });
});
