import { asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { setCallbackUrl } from "@/lib/callbacks/set-callback-url";
import { checkoutView } from "@/lib/checkout/checkout-view";
import { openCheckout } from "@/lib/checkout/open-checkout";
import { getCurrency } from "@/lib/currencies/registry";
import {
  addressCounters,
  callbacks,
  depositAddresses,
  deposits,
  invoices,
  transactionEvents,
} from "@/lib/db/schema";
import { unwindDeposit } from "@/lib/deposits/unwind-deposit";
import { createInvoice } from "@/lib/invoices/create-invoice";
import { expireInvoice } from "@/lib/invoices/expire-invoice";
import { fixInvoiceCurrency } from "@/lib/invoices/fix-invoice-currency";
import { loadInvoiceById } from "@/lib/invoices/load-invoice";
import { MAX_CURRENCY_SWITCHES } from "@/lib/invoices/switch-invoice-currency";
import { divide, formatAmount, parseDecimal } from "@/lib/money";
import { DEFAULT_USD_PRICES, INSTALLATION_PRICES, setUsdPrice } from "@/lib/rates/rates";
import { assertRefundFits } from "@/lib/withdrawals/assert-refund-fits";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { confirm, invoiceRequest, pay, settings, testKeys } from "../support/invoices";
import { createTestMerchant, fieldsOf } from "../support/merchants";
import { startReceiver } from "../support/receiver";

/**
 * "Pay with another currency" on the checkout: a customer who chose a coin switches to
 * another before paying; a merchant-fixed currency never switches; a payment seen stops switching;
 * money sent to the address shown before the switch is still credited to the invoice, judged by its
 * worth at the rate of its own moment; two tabs switching at once leave one consistent invoice.
 * Expected figures come from the sandbox prices and the spread, computed here independently.
 */
const USD = {
  EUR: parseDecimal("1.08"),
  BTC: parseDecimal(DEFAULT_USD_PRICES.BTC!),
  LTC: parseDecimal(DEFAULT_USD_PRICES.LTC!),
  ETH: parseDecimal(DEFAULT_USD_PRICES.ETH!),
};
const FALLEN_BTC = parseDecimal("48750");
const INVOICED = parseDecimal("100"); // EUR, the default of the test invoices

/** What `eur` costs in a coin at its USD price: EUR × 1.08 / (price × 0.995), rounded up to 10^-8. */
const dueIn = (eur: bigint, usdPrice: bigint) =>
  divide(eur * USD.EUR * 1_000_000n, usdPrice * 995_000n, "up");
/** EUR worth of `units` of a coin at its USD price, less the spread, rounded down (EUR has 8 digits). */
const worthOf = (units: bigint, usdPrice: bigint) =>
  divide(units * usdPrice * 995_000n, USD.EUR * 1_000_000n, "down");
/** The same less the 0.5% deposit fee, rounded up. */
const netOf = (gross: bigint) => gross - divide(gross * 5_000n, 1_000_000n, "up");

describe(`switching the pay currency on the checkout, on ${testDriver}`, () => {
  let database: TestDatabase;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let merchantId: number;

  const db = () => database.db;
  const reload = async (id: number) => (await loadInvoiceById(db(), id))!;
  const choose = (token: string, currency: string) =>
    fixInvoiceCurrency(db(), { token, currency, settings, keys: testKeys });
  /** A customer-chosen invoice: created without `sender_currency`, then the coin picked on the checkout. */
  const chosen = async (currency: string, overrides: Record<string, unknown> = {}) => {
    const created = await createInvoice(db(), { merchantId, request: invoiceRequest(overrides), settings });
    return choose(created.invoice.token, currency);
  };
  const pendingCallbacks = async (id: number) =>
    (
      await db().select().from(callbacks).where(eq(callbacks.transactionId, id)).orderBy(asc(callbacks.id))
    ).filter((c) => c.event === "invoice.pending");
  const addressesOf = (id: number) =>
    db()
      .select()
      .from(depositAddresses)
      .where(eq(depositAddresses.invoiceId, id))
      .orderBy(asc(depositAddresses.id));

  beforeAll(async () => {
    database = await createTestDatabase();
    receiver = await startReceiver();
    merchantId = await createTestMerchant(database, "Switch");
    await setCallbackUrl(db(), { merchantId, url: receiver.url(), mode: "sandbox" });
  });
  afterAll(async () => {
    await receiver.close();
    await database.drop();
  });
  beforeEach(() => setUsdPrice(db(), { merchantId: INSTALLATION_PRICES, currency: "BTC", price: USD.BTC }));

  it("re-prices a timer invoice in the new coin with a new address, its clock untouched, and tells the merchant", async () => {
    const btc = await chosen("BTC");
    expect(btc.invoice.senderAmount).toBe(dueIn(INVOICED, USD.BTC));
    expect((await checkoutView(db(), btc, settings)).can_switch_currency).toBe(true);

    const ltc = await choose(btc.invoice.token, "LTC");
    expect(ltc.status).toBe("pending");
    expect(ltc.invoice.senderCurrency).toBe("LTC");
    expect(ltc.invoice.senderAmount).toBe(dueIn(INVOICED, USD.LTC));
    expect(ltc.address!.currency).toBe("LTC");
    expect(ltc.address!.address).not.toBe(btc.address!.address);
    // The timer keeps running: the same deadline and the same start.
    expect(ltc.invoice.expiresAt!.getTime()).toBe(btc.invoice.expiresAt!.getTime());
    expect(ltc.invoice.fixedAt!.getTime()).toBe(btc.invoice.fixedAt!.getTime());
    // Both addresses stay tied to the invoice; the invoice points at the new one.
    expect((await addressesOf(ltc.id)).map((a) => a.currency)).toEqual(["BTC", "LTC"]);

    const view = await checkoutView(db(), ltc, settings);
    expect(view).toMatchObject({
      sender_currency: "LTC",
      sender_amount: formatAmount(dueIn(INVOICED, USD.LTC)),
      address: ltc.address!.address,
      remaining_amount: formatAmount(dueIn(INVOICED, USD.LTC)),
      can_switch_currency: true,
    });

    const pending = await pendingCallbacks(ltc.id);
    expect(pending).toHaveLength(2);
    const body = JSON.parse(pending[1]!.body) as Record<string, unknown>;
    expect(body.status).toBe("pending");
    expect(body.crypto_address).toMatchObject({ currency: "LTC", address: ltc.address!.address });
    const [event] = await db()
      .select()
      .from(transactionEvents)
      .where(eq(transactionEvents.transactionId, ltc.id))
      .orderBy(sql`${transactionEvents.id} desc`)
      .limit(1);
    expect(event).toMatchObject({ fromStatus: "pending", toStatus: "pending", reason: "currency_switched" });
  });

  it("gives an invoice without a timer a fresh rate lock from the switch", async () => {
    const btc = await chosen("BTC", { timer: false });
    await db()
      .update(invoices)
      .set({ fixedAt: sql`now() - interval '600 seconds'` })
      .where(eq(invoices.transactionId, btc.id));
    const before = Date.now();
    const eth = await choose(btc.invoice.token, "ETH");
    expect(eth.invoice.expiresAt).toBeNull();
    expect(eth.invoice.fixedAt!.getTime()).toBeGreaterThanOrEqual(before - 1_000);
    expect(eth.invoice.senderAmount).toBe(dueIn(INVOICED, USD.ETH));
  });

  it("answers the same invoice when the chosen coin is chosen again (a reload, a second tab)", async () => {
    const btc = await chosen("BTC");
    const again = await choose(btc.invoice.token, "BTC");
    expect(again.address!.id).toBe(btc.address!.id);
    expect(await addressesOf(btc.id)).toHaveLength(1);
  });

  it("gives a coin the invoice was already shown in its earlier address back, deriving nothing new", async () => {
    const btc = await chosen("BTC");
    const ltc = await choose(btc.invoice.token, "LTC");
    const counters = await db().select().from(addressCounters).orderBy(asc(addressCounters.key));
    const back = await choose(btc.invoice.token, "BTC");
    expect(back.invoice.senderCurrency).toBe("BTC");
    expect(back.address!.id).toBe(btc.address!.id);
    expect(back.address!.address).toBe(btc.address!.address);
    // Re-priced as any switch is, but no derivation index or tag was taken.
    expect(back.invoice.senderAmount).toBe(dueIn(INVOICED, USD.BTC));
    expect(await db().select().from(addressCounters).orderBy(asc(addressCounters.key))).toEqual(counters);
    const again = await choose(btc.invoice.token, "LTC");
    expect(again.address!.id).toBe(ltc.address!.id);
    expect((await addressesOf(btc.id)).map((a) => a.currency)).toEqual(["BTC", "LTC"]);
  });

  it(`refuses a switch after ${MAX_CURRENCY_SWITCHES}, leaving the invoice and the merchant's callbacks as they were`, async () => {
    const btc = await chosen("BTC");
    for (let n = 1; n <= MAX_CURRENCY_SWITCHES; n++) await choose(btc.invoice.token, n % 2 ? "LTC" : "BTC");
    const last = await reload(btc.id);
    expect(last.invoice.senderCurrency).toBe("BTC");
    const fields = await fieldsOf(choose(btc.invoice.token, "LTC"));
    expect(fields.currency).toBe(
      "The currency of this invoice was already changed 10 times; it cannot be changed again. Pay in BTC.",
    );
    const after = await reload(btc.id);
    expect(after.invoice.senderCurrency).toBe("BTC");
    expect(after.invoice.depositAddressId).toBe(last.invoice.depositAddressId);
    // One callback for the first choice and one per switch, none for the refusal.
    expect(await pendingCallbacks(btc.id)).toHaveLength(1 + 10);
    expect(await addressesOf(btc.id)).toHaveLength(2);
    // Choosing the current coin again (a reload) is no switch and still answers.
    expect((await choose(btc.invoice.token, "BTC")).address!.id).toBe(btc.address!.id);
  });

  it("refuses to switch a currency the merchant fixed, and does not offer it", async () => {
    // With a timer the address is handed out at creation; without one, when the checkout opens.
    const timed = await createInvoice(db(), {
      merchantId,
      request: invoiceRequest({ sender_currency: "BTC" }),
      settings,
      keys: testKeys,
    });
    const untimed = await createInvoice(db(), {
      merchantId,
      request: invoiceRequest({ sender_currency: "BTC", timer: false }),
      settings,
    });
    const opened = await openCheckout(db(), { token: untimed.invoice.token, settings, keys: testKeys });
    for (const fixed of [timed, opened]) {
      expect(fixed.address!.currency).toBe("BTC");
      expect((await checkoutView(db(), fixed, settings)).can_switch_currency).toBe(false);
      const fields = await fieldsOf(choose(fixed.invoice.token, "LTC"));
      expect(fields.currency).toBe("This invoice is paid in BTC; the currency cannot be changed.");
      expect((await reload(fixed.id)).invoice.senderCurrency).toBe("BTC");
      expect(await addressesOf(fixed.id)).toHaveLength(1);
    }
  });

  it("refuses to switch once a payment was seen, even unconfirmed", async () => {
    const btc = await chosen("BTC");
    await pay(db(), btc, parseDecimal("0.0001"));
    expect((await checkoutView(db(), await reload(btc.id), settings)).can_switch_currency).toBe(false);
    const fields = await fieldsOf(choose(btc.invoice.token, "LTC"));
    expect(fields.currency).toMatch(/payment to this invoice was already seen/);
    // Confirmed short, back to `pending` for the rest: still no switching.
    await confirm(db(), "BTC");
    const short = await reload(btc.id);
    expect(short.status).toBe("pending");
    expect((await fieldsOf(choose(btc.invoice.token, "LTC"))).currency).toMatch(/already seen/);
    expect((await reload(btc.id)).invoice.senderCurrency).toBe("BTC");
  });

  it("refuses to switch an expired invoice", async () => {
    const btc = await chosen("BTC");
    await db()
      .update(invoices)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(invoices.transactionId, btc.id));
    expect((await fieldsOf(choose(btc.invoice.token, "LTC"))).currency).toBe("This invoice has expired.");
  });

  it("credits the full amount sent to the address shown before the switch, and confirms the invoice", async () => {
    const btc = await chosen("BTC");
    const due = btc.invoice.senderAmount!;
    const ltc = await choose(btc.invoice.token, "LTC");
    await pay(db(), btc, due); // the customer had already sent it from the BTC page
    const seen = await reload(ltc.id);
    expect(seen.status).toBe("processing");
    expect(seen.invoice.paidAmount).toBe(0n); // LTC: nothing of it arrived
    const view = await checkoutView(db(), seen, settings);
    expect(view.payments).toMatchObject([{ currency: "BTC", amount: formatAmount(due) }]);
    expect(view.remaining_amount).toBe(formatAmount(0n));
    expect(view.can_switch_currency).toBe(false);
    // Confirmations are counted on the network of the payment, not of the coin now shown.
    expect(view.confirmations_required).toBe(getCurrency("BTC").confirmations);
    expect(getCurrency("BTC").confirmations).not.toBe(getCurrency("LTC").confirmations);

    await confirm(db(), "BTC");
    const paid = await reload(ltc.id);
    expect(paid.status).toBe("confirmed");
    expect(paid.invoice.statusReason).toBe("paid");
    expect(paid.invoice.creditedAmount).toBe(netOf(worthOf(due, USD.BTC)));
    const sent = await db().select().from(callbacks).where(eq(callbacks.transactionId, ltc.id));
    const confirmed = sent.find((c) => c.event === "invoice.confirmed")!;
    // The merchant is told what the BTC brought, in the invoice currency.
    expect(JSON.parse(confirmed.body).currency_received).toMatchObject({
      currency: "EUR",
      amount: formatAmount(worthOf(due, USD.BTC)),
      amount_minus_fee: formatAmount(netOf(worthOf(due, USD.BTC))),
    });
  });

  it("judges an old-address payment at the rate of its own moment and asks the rest in the new coin", async () => {
    const btc = await chosen("BTC", { type: "good_until_expired" });
    const due = btc.invoice.senderAmount!;
    const ltc = await choose(btc.invoice.token, "LTC");
    await setUsdPrice(db(), { merchantId: INSTALLATION_PRICES, currency: "BTC", price: FALLEN_BTC }); // the BTC arrives after its price fell 25%
    await pay(db(), btc, due);
    await confirm(db(), "BTC");
    const worth = worthOf(due, FALLEN_BTC);
    const short = await reload(ltc.id);
    expect(short.invoice.creditedAmount).toBe(netOf(worth));
    expect(short.status).toBe("pending");
    expect(short.invoice.statusReason).toBe("awaiting_remainder");
    const rest = dueIn(INVOICED - worth, USD.LTC);
    const view = await checkoutView(db(), short, settings);
    expect(view.remaining_amount).toBe(formatAmount(rest));
    expect(view.address).toBe(ltc.address!.address);

    await pay(db(), short, rest);
    await confirm(db(), "LTC");
    const done = await reload(ltc.id);
    expect(done.status).toBe("confirmed");
    expect(done.invoice.creditedAmount).toBe(netOf(worth) + netOf(worthOf(rest, USD.LTC)));
  });

  it("fails a short invoice at its deadline as partly paid when the money went to the old address", async () => {
    const btc = await chosen("BTC", { type: "good_until_expired" });
    const ltc = await choose(btc.invoice.token, "LTC");
    await pay(db(), btc, btc.invoice.senderAmount! / 2n);
    await confirm(db(), "BTC");
    expect((await reload(ltc.id)).invoice.statusReason).toBe("awaiting_remainder");
    await db()
      .update(invoices)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(invoices.transactionId, ltc.id));
    await db().transaction((tx) => expireInvoice(tx, ltc.id));
    const failed = await reload(ltc.id);
    expect(failed.status).toBe("failed");
    expect(failed.invoice.statusReason).toBe("partially_paid");
  });

  it("owes a short invoice's old-address payment back in the coin it came in, no more", async () => {
    const btc = await chosen("BTC");
    const ltc = await choose(btc.invoice.token, "LTC");
    const half = btc.invoice.senderAmount! / 2n;
    await pay(db(), btc, half);
    await confirm(db(), "BTC");
    await db()
      .update(invoices)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(invoices.transactionId, ltc.id));
    await db().transaction((tx) => expireInvoice(tx, ltc.id));
    const failed = await reload(ltc.id);
    expect([failed.status, failed.invoice.statusReason]).toEqual(["failed", "underpaid"]);
    expect(failed.invoice.confirmedAmount).toBe(0n); // nothing arrived in LTC

    const refund = (target: string, sent: bigint) =>
      db().transaction((tx) =>
        assertRefundFits(tx, {
          merchantId,
          invoiceId: ltc.id,
          target,
          sent,
          fields: { amount: "amount", target: "currency" },
        }),
      );
    await expect(refund("BTC", half)).resolves.toBeUndefined();
    const units = (n: bigint) =>
      `${n / 100_000_000n}.${(n % 100_000_000n).toString().padStart(8, "0")}`.replace(/\.?0+$/, "");
    expect((await fieldsOf(refund("BTC", half + 1n))).amount).toBe(
      `Invoice ${ltc.id} has ${units(half)} BTC left to refund; this payout would send ${units(half + 1n)} BTC.`,
    );
    // Nothing was received in LTC, so nothing is owed in it.
    expect((await fieldsOf(refund("LTC", 1n))).refund_of).toBe(
      `Invoice ${ltc.id} owes no refund: only an invoice that failed short, was overpaid, or was paid after it closed does.`,
    );
  });

  it("takes back an old-address payment a reorganisation removed without touching the new coin's sums", async () => {
    const btc = await chosen("BTC");
    const ltc = await choose(btc.invoice.token, "LTC");
    await pay(db(), btc, btc.invoice.senderAmount!);
    expect((await reload(ltc.id)).status).toBe("processing");
    const [seen] = await db().select().from(deposits).where(eq(deposits.transactionId, ltc.id));
    expect(await db().transaction((tx) => unwindDeposit(tx, seen!.id))).toBe(true);
    const back = await reload(ltc.id);
    expect(back.status).toBe("pending");
    expect(back.invoice.statusReason).toBe("payment_removed");
    expect(back.invoice.paidAmount).toBe(0n);
    expect((await checkoutView(db(), back, settings)).remaining_amount).toBe(
      formatAmount(dueIn(INVOICED, USD.LTC)),
    );
  });

  it("ends two tabs switching at once with one consistent invoice", async () => {
    const btc = await chosen("BTC");
    const results = await Promise.allSettled([
      choose(btc.invoice.token, "LTC"),
      choose(btc.invoice.token, "ETH"),
    ]);
    expect(results.map((r) => (r.status === "rejected" ? String(r.reason) : "switched"))).toEqual([
      "switched",
      "switched",
    ]);
    const final = await reload(btc.id);
    const current = (await addressesOf(btc.id)).find((a) => a.id === final.invoice.depositAddressId)!;
    // The invoice's currency, price and address agree with each other, whichever tab went last.
    expect(current.currency).toBe(final.invoice.senderCurrency);
    const price = final.invoice.senderCurrency === "LTC" ? USD.LTC : USD.ETH;
    expect(final.invoice.senderAmount).toBe(dueIn(INVOICED, price));
    expect((await addressesOf(btc.id)).map((a) => a.currency).sort()).toEqual(["BTC", "ETH", "LTC"]);
    expect(await pendingCallbacks(btc.id)).toHaveLength(3);
    expect(final.invoice.expiresAt!.getTime()).toBe(btc.invoice.expiresAt!.getTime());
  });

  it("settles a switch racing a payment to the old address either way without losing the payment", async () => {
    const btc = await chosen("BTC");
    const due = btc.invoice.senderAmount!;
    const [switched] = await Promise.allSettled([choose(btc.invoice.token, "LTC"), pay(db(), btc, due)]);
    const after = await reload(btc.id);
    expect(after.status).toBe("processing");
    if (switched.status === "fulfilled") {
      expect(after.invoice.senderCurrency).toBe("LTC");
      expect(after.invoice.paidAmount).toBe(0n);
    } else {
      expect(after.invoice.senderCurrency).toBe("BTC");
      expect(after.invoice.paidAmount).toBe(due);
    }
    await confirm(db(), "BTC");
    const done = await reload(btc.id);
    expect(done.status).toBe("confirmed");
    expect(done.invoice.creditedAmount).toBe(netOf(worthOf(due, USD.BTC)));
  });
});
