import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exchangeQuotes, transactions } from "@/lib/db/schema";
import { exchangeFixed } from "@/lib/exchanges/exchange-fixed";
import { exchangeNow } from "@/lib/exchanges/exchange-now";
import { fixExchangeQuote } from "@/lib/exchanges/fix-exchange-quote";
import { toExchangeOrder } from "@/lib/exchanges/to-exchange-order";
import { loadInvoiceById } from "@/lib/invoices/load-invoice";
import { creditSandboxBalance } from "@/lib/ledger/credit-sandbox-balance";
import { listBalances } from "@/lib/ledger/list-balances";
import { setWithdrawalLimits } from "@/lib/limits/set-withdrawal-limits";
import { formatAmount, parseDecimal } from "@/lib/money";
import { INSTALLATION_PRICES, setUsdPrice } from "@/lib/rates/rates";
import { exchangeNowRequest } from "@/lib/schemas/exchange";
import { instantWithdrawalRequest, withdrawalRequest } from "@/lib/schemas/withdrawals";
import { createWithdrawal } from "@/lib/withdrawals/create-withdrawal";
import { instantWithdrawalInput, withdrawalInput } from "@/lib/withdrawals/from-request";
import { listPendingWithdrawals } from "@/lib/withdrawals/list-pending-withdrawals";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { confirm, createFixedInvoice, pay, pricingWith } from "../support/invoices";
import { ledgerInvariants } from "../support/ledger";
import { createTestMerchant, fieldsOf } from "../support/merchants";

const BTC_ADDRESS = "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu";
const SPREAD_PPM = 5_000;
const units = parseDecimal;

// The prices this file sets (USD per unit, in 10^-8 units) and the conversion arithmetic worked out
// here with plain integers, independently of lib/rates: LTC→BTC at the spread rate is
// LTC price × (1 − spread) / BTC price target units per source unit.
let BTC_USD = units("50000");
const LTC_USD = units("125");
const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;
/** BTC units a conversion sends for `ltc` LTC units (rounded down, as what arrives). */
const btcFor = (ltc: bigint) => (ltc * LTC_USD * 995_000n) / (BTC_USD * 1_000_000n);
/** LTC units a conversion takes to send `btc` BTC units (rounded up, as what leaves). */
const ltcFor = (btc: bigint) => ceilDiv(btc * BTC_USD * 1_000_000n, LTC_USD * 995_000n);
/** LTC units an exchange buys with `btc` BTC units (rounded down). */
const ltcBoughtWith = (btc: bigint) => (btc * BTC_USD * 995_000n) / (LTC_USD * 1_000_000n);

let counter = 0;
const nextId = (prefix: string) => `${prefix}-${++counter}-${Math.random().toString(36).slice(2, 8)}`;
const party = {
  end_user_reference: "payee",
  sender_type: "legal",
  sender_data: { legal_name: "Shop GmbH", country_of_registration: "DEU" },
  receiver_type: "self",
};

describe(`withdrawal limits count value on every movement on ${testDriver}`, () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase();
    await setUsdPrice(database.db, { merchantId: INSTALLATION_PRICES, currency: "BTC", price: BTC_USD });
    await setUsdPrice(database.db, { merchantId: INSTALLATION_PRICES, currency: "LTC", price: LTC_USD });
  });
  afterAll(() => database.drop());

  /** A merchant holding 1 BTC and 1000 LTC, with the given BTC limits. */
  async function merchant(name: string, btcLimits: { perWithdrawal: string; perDay?: string }) {
    const merchantId = await createTestMerchant(database, name);
    for (const [currency, amount] of [
      ["BTC", "1"],
      ["LTC", "1000"],
    ] as const) {
      await creditSandboxBalance(database.db, {
        merchantId,
        currency,
        amount: units(amount),
        isSandbox: true,
      });
    }
    await setWithdrawalLimits(database.db, { merchantId, currency: "BTC", ...btcLimits });
    const withdraw = (fields: Record<string, unknown>) =>
      createWithdrawal(database.db, {
        ...withdrawalInput(
          merchantId,
          withdrawalRequest.parse({ address: BTC_ADDRESS, foreign_id: nextId("w"), ...party, ...fields }),
          pricingWith(SPREAD_PPM),
        ),
      });
    const instant = (amount: string) =>
      createWithdrawal(database.db, {
        ...instantWithdrawalInput(
          merchantId,
          instantWithdrawalRequest.parse({
            address: BTC_ADDRESS,
            foreign_id: nextId("i"),
            sender_currency: "BTC",
            sender_amount: amount,
            ...party,
          }),
          pricingWith(SPREAD_PPM),
        ),
      });
    const exchange = (fields: Record<string, unknown>) =>
      exchangeNow(database.db, {
        ...toExchangeOrder(merchantId, exchangeNowRequest.parse({ foreign_id: nextId("x"), ...fields })),
        pricing: pricingWith(SPREAD_PPM),
      });
    const balances = async () =>
      Object.fromEntries(
        (await listBalances(database.db, merchantId)).map((b) => [b.currency, formatAmount(b.balance)]),
      );
    const transactionCount = async () =>
      (
        await database.db
          .select({ id: transactions.id })
          .from(transactions)
          .where(eq(transactions.merchantId, merchantId))
      ).length;
    return { merchantId, withdraw, instant, exchange, balances, transactionCount };
  }

  it("holds LTC converted into a BTC payout by the BTC limits, and refuses the exchange that would feed it", async () => {
    const m = await merchant("Finding", { perWithdrawal: "0.01", perDay: "0.02" });
    const before = await m.balances();
    // Selling 0.05 BTC for LTC moves 0.05 BTC: over the 0.01 BTC per-withdrawal limit, and an exchange
    // has no approval, so it is refused with nothing written.
    const exchanged = await fieldsOf(
      m.exchange({ sender_currency: "BTC", receiver_currency: "LTC", sender_amount: "0.05" }),
    );
    expect(exchanged).toEqual({
      sender_amount:
        "Over your BTC limit of 0.01 BTC per withdrawal or exchange: this exchange moves 0.05 BTC.",
    });
    expect(await m.balances()).toEqual(before);
    // The LTC balance converted into a 0.05 BTC payout is judged as 0.05 BTC: it waits for approval,
    // like the direct 0.05 BTC withdrawal.
    const converted = await m.withdraw({ currency: "LTC", convert_to: "BTC", amount_to: "0.05" });
    expect(converted.status).toBe("pending");
    expect(converted.price.sent).toBe(units("0.05"));
    expect((await m.withdraw({ currency: "BTC", amount: "0.05" })).status).toBe("pending");
  });

  it("values a conversion in both currencies at the rate of the moment, to the unit", async () => {
    const m = await merchant("Valued", { perWithdrawal: "1" });
    // From 4 LTC the payout sends btcFor(4 LTC) BTC: a BTC limit of exactly that lets it through,
    // one unit less holds it.
    const fromLtc = units("4");
    const sent = btcFor(fromLtc);
    expect(sent).toBe(units("0.00995"));
    const setBtc = (limit: bigint) =>
      setWithdrawalLimits(database.db, {
        merchantId: m.merchantId,
        currency: "BTC",
        perWithdrawal: formatAmount(limit),
      });
    await setBtc(sent);
    const at = await m.withdraw({ currency: "LTC", convert_to: "BTC", amount: "4" });
    expect([at.price.sent, at.status]).toEqual([sent, "processing"]);
    await setBtc(sent - 1n);
    expect((await m.withdraw({ currency: "LTC", convert_to: "BTC", amount: "4" })).status).toBe("pending");

    // The LTC side: sending 0.01 BTC takes ltcFor(0.01 BTC) LTC, judged by an LTC limit to the unit.
    await setBtc(units("1"));
    const taken = ltcFor(units("0.01"));
    const setLtc = (limit: bigint) =>
      setWithdrawalLimits(database.db, {
        merchantId: m.merchantId,
        currency: "LTC",
        perWithdrawal: formatAmount(limit),
      });
    await setLtc(taken);
    const within = await m.withdraw({ currency: "LTC", convert_to: "BTC", amount_to: "0.01" });
    expect([within.price.principal, within.status]).toEqual([taken, "processing"]);
    await setLtc(taken - 1n);
    expect((await m.withdraw({ currency: "LTC", convert_to: "BTC", amount_to: "0.01" })).status).toBe(
      "pending",
    );

    // The rate of the moment, not of the limit's setting: BTC falls to 40000 USD, so the same 4 LTC
    // now send more BTC, over a BTC limit they fitted before.
    await setLtc(units("1000"));
    await setBtc(sent);
    BTC_USD = units("40000");
    await setUsdPrice(database.db, { merchantId: INSTALLATION_PRICES, currency: "BTC", price: BTC_USD });
    try {
      expect(btcFor(fromLtc)).toBeGreaterThan(sent);
      const dearer = await m.withdraw({ currency: "LTC", convert_to: "BTC", amount: "4" });
      expect([dearer.price.sent, dearer.status]).toEqual([btcFor(fromLtc), "pending"]);
    } finally {
      BTC_USD = units("50000");
      await setUsdPrice(database.db, { merchantId: INSTALLATION_PRICES, currency: "BTC", price: BTC_USD });
    }
  });

  it("counts exchanges and instant withdrawals against the day, in the currency bought as well as sold", async () => {
    const m = await merchant("Daily", { perWithdrawal: "0.01", perDay: "0.02" });
    // Selling 0.008 BTC and buying 0.008 BTC both touch BTC: 0.016 of the day's 0.02.
    const sold = await m.exchange({
      sender_currency: "BTC",
      receiver_currency: "LTC",
      sender_amount: "0.008",
    });
    expect(sold.price.receiverAmount).toBe(ltcBoughtWith(units("0.008")));
    const bought = await m.exchange({
      sender_currency: "LTC",
      receiver_currency: "BTC",
      receiver_amount: "0.008",
    });
    expect(bought.price.senderAmount).toBe(ltcFor(units("0.008")));
    // An instant withdrawal of 0.005 BTC (each under the per-withdrawal limit) is over what is left.
    expect((await m.instant("0.005")).status).toBe("pending");
    // So is a third exchange, refused with what is left today.
    const before = await m.balances();
    const count = await m.transactionCount();
    expect(
      await fieldsOf(
        m.exchange({ sender_currency: "LTC", receiver_currency: "BTC", receiver_amount: "0.005" }),
      ),
    ).toEqual({
      receiver_amount:
        "Over your BTC daily limit of 0.02 BTC: 0.004 BTC is left today and this exchange moves 0.005 BTC.",
    });
    expect([await m.balances(), await m.transactionCount()]).toEqual([before, count]);
    // What is left still goes through, exactly.
    expect((await m.instant("0.004")).status).toBe("processing");
    expect((await m.withdraw({ currency: "BTC", amount: "0.0001" })).status).toBe("pending");
  });

  it("refuses exchange/fixed over a limit and leaves its quote unused", async () => {
    const m = await merchant("Fixed", { perWithdrawal: "0.01" });
    const quote = await fixExchangeQuote(database.db, {
      merchantId: m.merchantId,
      senderCurrency: "LTC",
      receiverCurrency: "BTC",
      receiverAmount: units("0.02"),
      pricing: pricingWith(SPREAD_PPM),
    });
    expect(quote.senderAmount).toBe(ltcFor(units("0.02")));
    const before = await m.balances();
    const order = {
      merchantId: m.merchantId,
      foreignId: nextId("f"),
      senderCurrency: "LTC",
      receiverCurrency: "BTC",
      receiverAmount: units("0.02"),
      price: quote.price,
    };
    expect(await fieldsOf(exchangeFixed(database.db, order))).toEqual({
      receiver_amount:
        "Over your BTC limit of 0.01 BTC per withdrawal or exchange: this exchange moves 0.02 BTC.",
    });
    expect(await m.balances()).toEqual(before);
    const [stored] = await database.db
      .select()
      .from(exchangeQuotes)
      .where(eq(exchangeQuotes.id, quote.quoteId));
    expect(stored!.transactionId).toBeNull();
    // Raised in time, the same quote executes.
    await setWithdrawalLimits(database.db, {
      merchantId: m.merchantId,
      currency: "BTC",
      perWithdrawal: "0.02",
    });
    const done = await exchangeFixed(database.db, order);
    expect(done.price.receiverAmount).toBe(units("0.02"));
  });

  it("holds a refund converted into the coin the customer paid by that coin's limits", async () => {
    const m = await merchant("Refunds", { perWithdrawal: "0" });
    const invoice = await createFixedInvoice(database.db, m.merchantId, "BTC", { timer: false });
    const half = invoice.invoice.senderAmount! / 2n;
    await pay(database.db, invoice, half);
    await confirm(database.db, "BTC");
    expect((await loadInvoiceById(database.db, invoice.id))!.status).toBe("failed");
    const refund = await createWithdrawal(database.db, {
      ...withdrawalInput(
        m.merchantId,
        withdrawalRequest.parse({
          address: BTC_ADDRESS,
          foreign_id: nextId("r"),
          ...party,
          currency: "LTC",
          convert_to: "BTC",
          amount_to: formatAmount(half),
        }),
        pricingWith(SPREAD_PPM),
      ),
      refundOf: invoice.id,
    });
    expect([refund.price.sent, refund.status]).toEqual([half, "pending"]);

    // Its approvals card: the invoice it refunds, who receives it, and what it is worth now in USD
    // (LTC at 125 USD, rounded down to the cent, worked out here without lib/rates).
    const [card] = await listPendingWithdrawals(database.db, { merchantId: m.merchantId, viewerUserId: 0 });
    expect(card).toMatchObject({ id: refund.id, refund_of: invoice.id, receiver: "Your own wallet" });
    const usd = (refund.price.principal * LTC_USD) / units("1");
    expect(card!.value_now).toEqual({
      amount: formatAmount((usd / 1_000_000n) * 1_000_000n),
      currency: "USD",
    });
  });

  it("lets ten racing movements of every kind past the daily limit no further than the limit", async () => {
    const m = await merchant("Race", { perWithdrawal: "0.01", perDay: "0.03" });
    // Ten requests, each moving exactly 0.007 BTC, two of each kind, all at once.
    const each = units("0.007");
    const kinds = [
      () => m.withdraw({ currency: "BTC", amount: "0.007" }),
      () => m.withdraw({ currency: "LTC", convert_to: "BTC", amount_to: "0.007" }),
      () => m.instant("0.007"),
      () => m.exchange({ sender_currency: "BTC", receiver_currency: "LTC", sender_amount: "0.007" }),
      () => m.exchange({ sender_currency: "LTC", receiver_currency: "BTC", receiver_amount: "0.007" }),
    ];
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        kinds[i % kinds.length]!().then(
          (result) => ("status" in result ? result.status : "exchanged"),
          (error: unknown) => {
            const fields = (error as { fields?: Record<string, string> }).fields ?? {};
            expect(Object.values(fields)[0]).toMatch(/^Over your BTC daily limit of 0\.03 BTC: /);
            return "refused";
          },
        ),
      ),
    );
    const passed = outcomes.filter((o) => o === "processing" || o === "exchanged").length;
    const held = outcomes.filter((o) => o === "pending" || o === "refused").length;
    // 0.03 / 0.007 = 4.28…: four fit, whatever the interleaving; the other six wait or are refused.
    expect(BigInt(passed) * each).toBeLessThanOrEqual(units("0.03"));
    expect(BigInt(passed + 1) * each).toBeGreaterThan(units("0.03"));
    expect([passed, held]).toEqual([4, 6]);
    expect((await ledgerInvariants(database.db)).negativeMerchantBalances).toBe(0);
  });
});
