import { asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setCallbackUrl } from "@/lib/callbacks/set-callback-url";
import { amountsDue } from "@/lib/checkout/amounts-due";
import { queryRows } from "@/lib/db/client";
import { callbacks, deposits } from "@/lib/db/schema";
import { createInvoice } from "@/lib/invoices/create-invoice";
import { fixInvoiceCurrency } from "@/lib/invoices/fix-invoice-currency";
import { loadInvoiceById } from "@/lib/invoices/load-invoice";
import { divide, formatAmount, parseDecimal } from "@/lib/money";
import { DEFAULT_USD_PRICES, INSTALLATION_PRICES, setUsdPrice } from "@/lib/rates/rates";
import { transactionInfoResponse } from "@/lib/schemas/transactions";
import { describeTransaction } from "@/lib/transactions/describe-transaction";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { confirm, invoiceRequest, pay, settings, testKeys } from "../support/invoices";
import { ledgerInvariants } from "../support/ledger";
import { createTestMerchant } from "../support/merchants";
import { startReceiver } from "../support/receiver";

/**
 * The money of an invoice paid in two coins ("pay with another currency"): the customer
 * chose one coin, switched to another, paid part to the address shown first and the rest to the new
 * one. transactions/info, the callbacks and the ledger must each pair every coin's received sum with
 * its own converted value, and add up. Expected figures are computed here from the sandbox's USD
 * prices and the 0.5% spread and deposit fee, independently of lib/rates.
 */
const USD: Record<string, bigint> = Object.fromEntries(
  ["EUR", "BTC", "LTC", "ETH"].map((code) => [code, parseDecimal(DEFAULT_USD_PRICES[code]!)]),
);

/** What `amount` of `to` costs in `from`, the spread taken: amount × to / (from × 0.995), rounded up. */
const costIn = (amount: bigint, to: string, from: string) =>
  divide(amount * USD[to]! * 1_000_000n, USD[from]! * 995_000n, "up");
/** What `units` of `from` bring in `to`, less the spread, rounded down to 10^-8. */
const worthOf = (units: bigint, from: string, to: string) =>
  divide(units * USD[from]! * 995_000n, USD[to]! * 1_000_000n, "down");
/** The 0.5% deposit fee on a gross credit, rounded up. */
const feeOf = (gross: bigint) => divide(gross * 5_000n, 1_000_000n, "up");

describe(`an invoice paid in two coins after a switch, in figures, on ${testDriver}`, () => {
  let database: TestDatabase;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let merchantId: number;
  const db = () => database.db;

  const choose = (token: string, currency: string) =>
    fixInvoiceCurrency(db(), { token, currency, settings, keys: testKeys });
  const info = async (id: number) => {
    const described = await describeTransaction(db(), id);
    expect(transactionInfoResponse.safeParse(described).success).toBe(true);
    return described;
  };
  const callbackBodies = async (id: number) =>
    (
      await db().select().from(callbacks).where(eq(callbacks.transactionId, id)).orderBy(asc(callbacks.id))
    ).map((row) => ({ event: row.event, body: JSON.parse(row.body) as Record<string, unknown> }));
  /** The invoice's journals, summed per account kind and currency. */
  const ledgerOf = async (id: number) => {
    const rows = await queryRows<{ kind: string; currency: string; total: string }>(
      db(),
      sql`select a.kind, e.currency, sum(e.amount)::text as total
          from ledger_entries e
          join journals j on j.id = e.journal_id
          join ledger_accounts a on a.id = e.account_id
          where j.transaction_id = ${id}
          group by a.kind, e.currency`,
    );
    return Object.fromEntries(rows.map((row) => [`${row.kind} ${row.currency}`, parseDecimal(row.total)]));
  };

  /**
   * An invoice of `amount` `currency`; the customer chooses `first`, switches to `second`, sends
   * `firstShare` of the first coin's price to the first address and the value left to the second.
   */
  async function payInTwoCoins(input: { currency: string; amount: string; first: string; second: string }) {
    const created = await createInvoice(db(), {
      merchantId,
      request: invoiceRequest({ currency: input.currency, amount: input.amount, type: "good_until_expired" }),
      settings,
    });
    const first = await choose(created.invoice.token, input.first);
    const second = await choose(created.invoice.token, input.second);
    const firstPaid = first.invoice.senderAmount! / 3n;
    await pay(db(), first, firstPaid);
    await confirm(db(), input.first);
    const invoiced = parseDecimal(input.amount);
    const firstGross = worthOf(firstPaid, input.first, input.currency);
    // The rest is asked in the second coin at the current price (rounded up), as the checkout asks it.
    const secondPaid =
      input.second === input.currency
        ? invoiced - firstGross
        : costIn(invoiced - firstGross, input.currency, input.second);
    const short = (await loadInvoiceById(db(), second.id))!;
    expect([short.status, short.invoice.statusReason]).toEqual(["pending", "awaiting_remainder"]);
    // transactions/info asks the rest in the second coin, in both places it says what is owed.
    const owing = await info(second.id);
    expect(owing.currency_sent?.remaining_amount).toBe(formatAmount(secondPaid));
    expect(owing.additional_details).toMatchObject({ remaining_amount: formatAmount(secondPaid) });
    // The dashboard's invoice page says how short it is in the invoice currency: the value not yet covered.
    expect((await amountsDue(db(), short))?.inInvoiceCurrency).toEqual({
      remaining: invoiced - firstGross,
      overpaid: 0n,
    });
    await pay(db(), second, secondPaid);
    await confirm(db(), input.second);
    const secondGross =
      input.second === input.currency ? secondPaid : worthOf(secondPaid, input.second, input.currency);
    return { id: second.id, firstPaid, secondPaid, firstGross, secondGross };
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    receiver = await startReceiver();
    merchantId = await createTestMerchant(database, "TwoCoins");
    await setCallbackUrl(db(), { merchantId, url: receiver.url(), mode: "sandbox" });
  });
  afterAll(async () => {
    await receiver.close();
    await database.drop();
  });

  it("pairs each coin with its own converted value in transactions/info, the callback and the ledger", async () => {
    const paid = await payInTwoCoins({ currency: "EUR", amount: "100", first: "BTC", second: "LTC" });
    const { firstPaid, secondPaid, firstGross, secondGross } = paid;
    const fee = feeOf(firstGross) + feeOf(secondGross);
    const gross = firstGross + secondGross;
    expect((await loadInvoiceById(db(), paid.id))!.status).toBe("confirmed");

    const described = await info(paid.id);
    expect(described.status).toBe("confirmed");
    const exchanges = described.transactions.filter((t) => t.transaction_type === "exchange");
    expect(exchanges).toEqual([
      {
        id: paid.id,
        currency: "BTC",
        currency_to: "EUR",
        transaction_type: "exchange",
        type: "exchange",
        amount: formatAmount(firstPaid),
        amount_to: formatAmount(firstGross),
      },
      {
        id: paid.id,
        currency: "LTC",
        currency_to: "EUR",
        transaction_type: "exchange",
        type: "exchange",
        amount: formatAmount(secondPaid),
        amount_to: formatAmount(secondGross),
      },
    ]);
    expect(
      described.transactions
        .filter((t) => t.transaction_type === "blockchain")
        .map((t) => [t.currency, t.amount]),
    ).toEqual([
      ["BTC", formatAmount(firstPaid)],
      ["LTC", formatAmount(secondPaid)],
    ]);
    // What the merchant received is the sum of both conversions, less both fees.
    expect(described.currency_received).toEqual({
      currency: "EUR",
      amount: formatAmount(gross),
      amount_minus_fee: formatAmount(gross - fee),
    });
    expect(described.fees).toEqual([
      { type: "fee_crypto_deposit", currency: "EUR", amount: formatAmount(fee) },
    ]);

    // The confirmed callback says the same.
    const confirmed = (await callbackBodies(paid.id)).find((c) => c.event === "invoice.confirmed")!;
    expect(confirmed.body.transactions).toEqual(described.transactions);
    expect(confirmed.body.currency_received).toEqual(described.currency_received);

    // The ledger: each coin came from the chain into the exchange desk, which paid out their gross
    // in EUR, split between the merchant and the fee.
    expect(await ledgerOf(paid.id)).toEqual({
      "platform:chain BTC": -firstPaid,
      "platform:exchange BTC": firstPaid,
      "platform:chain LTC": -secondPaid,
      "platform:exchange LTC": secondPaid,
      "platform:exchange EUR": -gross,
      "balance EUR": gross - fee,
      "platform:fees EUR": fee,
    });
    expect(await ledgerInvariants(db())).toEqual({
      nonZeroCurrencies: [],
      accountsNotMatchingEntries: 0,
      negativeMerchantBalances: 0,
    });
  });

  it("shows the conversion of a coin paid before the customer switched to the invoice's own currency", async () => {
    // An invoice in LTC: the customer first chose BTC, then LTC itself, which needs no conversion.
    const paid = await payInTwoCoins({ currency: "LTC", amount: "2", first: "BTC", second: "LTC" });
    const { firstPaid, secondPaid, firstGross, secondGross } = paid;
    const fee = feeOf(firstGross) + feeOf(secondGross);
    const described = await info(paid.id);
    expect(described.status).toBe("confirmed");
    expect(described.transactions.filter((t) => t.transaction_type === "exchange")).toEqual([
      {
        id: paid.id,
        currency: "BTC",
        currency_to: "LTC",
        transaction_type: "exchange",
        type: "exchange",
        amount: formatAmount(firstPaid),
        amount_to: formatAmount(firstGross),
      },
    ]);
    expect(described.currency_received).toEqual({
      currency: "LTC",
      amount: formatAmount(firstGross + secondGross),
      amount_minus_fee: formatAmount(firstGross + secondGross - fee),
    });
    expect(await ledgerOf(paid.id)).toEqual({
      "platform:chain BTC": -firstPaid,
      "platform:exchange BTC": firstPaid,
      "platform:exchange LTC": -firstGross,
      "platform:chain LTC": -secondPaid,
      "balance LTC": firstGross + secondGross - fee,
      "platform:fees LTC": fee,
    });
  });
  it("values a payment in the coin shown before a switch, seen while no rate could be had, at its own coin's rate", async () => {
    const created = await createInvoice(db(), { merchantId, request: invoiceRequest(), settings });
    const btc = await choose(created.invoice.token, "BTC");
    const ltc = await choose(created.invoice.token, "LTC");
    await pay(db(), btc, btc.invoice.senderAmount!);
    // Seen while no BTC rate could be had: nothing recorded, crediting will use the rate of its moment.
    await db()
      .update(deposits)
      .set({ rateNumerator: null, rateDenominator: null })
      .where(eq(deposits.transactionId, ltc.id));
    const fallen = parseDecimal("48750");
    await setUsdPrice(db(), { merchantId: INSTALLATION_PRICES, currency: "BTC", price: fallen });
    try {
      const due = btc.invoice.senderAmount!;
      // At BTC's rate of now, never at the LTC rate locked on the invoice.
      const gross = divide(due * fallen * 995_000n, USD.EUR! * 1_000_000n, "down");
      const seen = await info(ltc.id);
      expect(seen.status).toBe("not_confirmed");
      expect(seen.currency_received).toEqual({
        currency: "EUR",
        amount: formatAmount(gross),
        amount_minus_fee: formatAmount(gross - feeOf(gross)),
      });
      // Credited at that same rate: what was announced is what arrives.
      await confirm(db(), "BTC");
      const credited = (await loadInvoiceById(db(), ltc.id))!;
      expect(credited.invoice.creditedAmount).toBe(gross - feeOf(gross));
      expect((await info(ltc.id)).currency_received).toEqual(seen.currency_received);
    } finally {
      await setUsdPrice(db(), { merchantId: INSTALLATION_PRICES, currency: "BTC", price: USD.BTC! });
    }
  });
});
