import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setCallbackUrl } from "@/lib/callbacks/set-callback-url";
import { queryRows } from "@/lib/db/client";
import { inTransaction } from "@/lib/db/transaction";
import { exchangeFixed } from "@/lib/exchanges/exchange-fixed";
import { exchangeNow } from "@/lib/exchanges/exchange-now";
import { fixExchangeQuote } from "@/lib/exchanges/fix-exchange-quote";
import { listPairs } from "@/lib/exchanges/list-pairs";
import { settleExchange } from "@/lib/exchanges/settle-exchange";
import { runDueJobs } from "@/lib/jobs/runner";
import { BALANCE_WRITERS } from "@/lib/ledger/balance-queue";
import { creditSandboxBalance } from "@/lib/ledger/credit-sandbox-balance";
import { listBalances } from "@/lib/ledger/list-balances";
import { formatAmount, parseDecimal } from "@/lib/money";
import { exchangeFixedRequest, exchangeNowRequest } from "@/lib/schemas/exchange";
import { describeTransaction } from "@/lib/transactions/describe-transaction";
import { findTransactionId } from "@/lib/transactions/find-transaction";
import { listTransactions } from "@/lib/transactions/list-transactions";
import { parseFilter } from "@/lib/transactions/parse-filter";
import { transactionDetail } from "@/lib/transactions/transaction-detail";
import { testClock } from "../support/clock";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { handlers, pricingWith } from "../support/invoices";
import { ledgerInvariants, lockWaiters, whileBalanceHeld } from "../support/ledger";
import { createTestMerchant, fieldsOf } from "../support/merchants";
import { waitUntil } from "../support/wait";

// Sandbox prices (lib/rates/rates.ts DEFAULT_USD_PRICES): BTC 65000 USD, EUR 1.08 USD, ETH 3200 USD;
// spread 5000 ppm (0.5%). Every expected figure below is worked out by hand from those numbers.
// Amounts are minor units of 10^-8, and fiat keeps 8 fraction digits like crypto (registry precision 8;
// its minorUnit 2 is only for payment tolerance and display), so a conversion into or out of EUR rounds
// once, at 10^-8, not at the cent. Exact rates used below:
//   BTC→EUR = 65000 × 0.995 / 1.08 = 6467500 / 108 = 1616875/27 EUR per BTC (59884.259259…);
//   BTC→EUR mid = 65000 / 1.08 = 1625000/27; EUR→BTC = 1.08 × 0.995 / 65000 = 5373/325000000.
const SPREAD_PPM = 5_000;
const units = parseDecimal;

let counter = 0;
const nextForeignId = () => `exchange-${++counter}-${Math.random().toString(36).slice(2, 8)}`;

describe(`exchanges on ${testDriver}`, () => {
  let database: TestDatabase;
  let merchantId: number;
  const balance = async (currency: string, merchant = merchantId) =>
    (await listBalances(database.db, merchant)).find((b) => b.currency === currency)!.balance;
  const credit = (merchant: number, currency: string, amount: string) =>
    creditSandboxBalance(database.db, {
      merchantId: merchant,
      currency,
      amount: units(amount),
      isSandbox: true,
    });
  const journalsOf = async (transactionId: number) =>
    queryRows<{ kind: string }>(
      database.db,
      sql`select kind from journals where transaction_id = ${transactionId} order by id`,
    );
  const platform = async (kind: string, currency: string) => {
    const [row] = await queryRows<{ balance: string }>(
      database.db,
      sql`select balance::text as balance from ledger_accounts where merchant_id is null and kind = ${kind} and currency = ${currency}`,
    );
    return row ? units(row.balance) : 0n;
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    merchantId = await createTestMerchant(database, "Swap");
    await credit(merchantId, "BTC", "1");
    await credit(merchantId, "EUR", "1000");
  });
  afterAll(() => database.drop());

  it("lists pairs with rate_from 1 and the spread-included rate_to, filtered by either side", async () => {
    const all = await listPairs(database.db, { merchantId, pricing: pricingWith(SPREAD_PPM) });
    // 12 currencies in the registry, each exchangeable into the 11 others.
    expect(all).toHaveLength(12 * 11);
    const fromBtc = await listPairs(database.db, {
      merchantId,
      from: "BTC",
      pricing: pricingWith(SPREAD_PPM),
    });
    expect(fromBtc).toHaveLength(11);
    const [btcEur] = await listPairs(database.db, {
      merchantId,
      from: "BTC",
      to: "EUR",
      pricing: pricingWith(SPREAD_PPM),
    });
    // 65000 × 0.995 / 1.08 = 59884.259259…, printed with 8 digits, rounded down.
    expect(btcEur).toEqual({
      currency_from: {
        currency: "BTC",
        type: "crypto",
        min_amount: "0.00010000",
        min_amount_deposit_with_exchange: "0.00010000",
      },
      currency_to: { currency: "EUR", type: "fiat" },
      rate_from: "1",
      rate_to: "59884.25925925",
    });
    const [eurBtc] = await listPairs(database.db, {
      merchantId,
      from: "EUR",
      to: "BTC",
      pricing: pricingWith(SPREAD_PPM),
    });
    // 1.08 × 0.995 / 65000 = 1.0746 / 65000 = 0.0000165323…; fiat has no deposit-with-exchange minimum.
    expect(eurBtc).toEqual({
      currency_from: { currency: "EUR", type: "fiat", min_amount: "10.00000000" },
      currency_to: { currency: "BTC", type: "crypto" },
      rate_from: "1",
      rate_to: "0.00001653",
    });
    const toEur = await listPairs(database.db, { merchantId, to: "EUR", pricing: pricingWith(SPREAD_PPM) });
    expect(toEur.map((pair) => pair.currency_to.currency)).toEqual(Array(11).fill("EUR"));
  });

  it("quotes crypto to fiat from sender_amount with a 60-second fix period", async () => {
    const quote = await fixExchangeQuote(database.db, {
      merchantId,
      senderCurrency: "BTC",
      receiverCurrency: "EUR",
      senderAmount: units("0.01"),
      pricing: pricingWith(SPREAD_PPM),
    });
    // 0.01 BTC = 1000000 units: 1000000 × 1616875 / 27 = 1616875000000 / 27 = 59884259259 rem 7
    // → 598.84259259 EUR (down); at the mid rate 1000000 × 1625000 / 27 = 60185185185 rem 5
    // → 601.85185185, so the spread kept 60185185185 − 59884259259 = 300925926 units = 3.00925926 EUR.
    expect(formatAmount(quote.receiverAmount)).toBe("598.84259259");
    expect(formatAmount(quote.feeAmount)).toBe("3.00925926");
    expect(formatAmount(quote.price)).toBe("59884.25925925");
    expect(quote.feeType).toBe("exchange");
    expect(quote.releaseAt.getTime() - quote.fixedAt.getTime()).toBe(60_000);
    expect(quote.fixedAt.getMilliseconds()).toBe(0);
  });

  it("quotes fiat to crypto from receiver_amount, rounding what is sent up", async () => {
    const quote = await fixExchangeQuote(database.db, {
      merchantId,
      senderCurrency: "BTC",
      receiverCurrency: "EUR",
      receiverAmount: units("100"),
      pricing: pricingWith(SPREAD_PPM),
    });
    // 100 EUR = 10^10 units: 10^10 × 27 / 1616875 = 166988 rem 1277500 → 166989 units (up) = 0.00166989 BTC;
    // at the mid rate 166989 × 1625000 / 27 = 271357125000 / 27 = 10050263888 rem 24 → 100.50263888 EUR
    // (down), so the fee is 10050263888 − 10000000000 = 50263888 units = 0.50263888 EUR.
    expect(formatAmount(quote.senderAmount)).toBe("0.00166989");
    expect(formatAmount(quote.receiverAmount)).toBe("100.00000000");
    expect(formatAmount(quote.feeAmount)).toBe("0.50263888");

    const eurToBtc = await fixExchangeQuote(database.db, {
      merchantId,
      senderCurrency: "EUR",
      receiverCurrency: "BTC",
      senderAmount: units("250"),
      pricing: pricingWith(SPREAD_PPM),
    });
    // 250 × 1.0746 / 65000 = 268.65 / 65000 = 0.004133076… → 0.00413307 BTC;
    // mid 250 × 1.08 / 65000 = 0.004153846… → 0.00415384; fee 0.00002077 BTC.
    expect(formatAmount(eurToBtc.receiverAmount)).toBe("0.00413307");
    expect(formatAmount(eurToBtc.feeAmount)).toBe("0.00002077");
  });

  it("names crypto-to-crypto fees fee_crypto_exchange_to_crypto", async () => {
    const quote = await fixExchangeQuote(database.db, {
      merchantId,
      senderCurrency: "BTC",
      receiverCurrency: "ETH",
      senderAmount: units("0.1"),
      pricing: pricingWith(SPREAD_PPM),
    });
    // 0.1 × 65000 × 0.995 / 3200 = 2.02109375 exactly; mid 0.1 × 65000 / 3200 = 2.03125.
    expect(formatAmount(quote.receiverAmount)).toBe("2.02109375");
    expect(formatAmount(quote.feeAmount)).toBe("0.01015625");
    expect(quote.feeType).toBe("fee_crypto_exchange_to_crypto");
  });

  it("refuses a pair of one currency, an amount below the minimum, and too many digits", async () => {
    const quoteOf = (input: Record<string, unknown>) =>
      fieldsOf(
        fixExchangeQuote(database.db, {
          merchantId,
          senderCurrency: "BTC",
          receiverCurrency: "EUR",
          pricing: pricingWith(SPREAD_PPM),
          ...input,
        }),
      );
    expect(await quoteOf({ receiverCurrency: "BTC", senderAmount: units("1") })).toEqual({
      sender_currency: "Exchange is unavailable for given currencies",
    });
    expect(await quoteOf({ senderAmount: units("0.00005") })).toEqual({
      sender_amount: "The amount must be at least 0.0001 BTC.",
    });
    // USDTE keeps 6 digits, so a seventh is refused; EUR keeps 8 since fiat took the public API's
    // precision, so 10.001 EUR (three digits, once refused for EUR's 2) is a valid receiver amount.
    expect(await quoteOf({ receiverCurrency: "USDTE", receiverAmount: units("10.0000001") })).toEqual({
      receiver_amount: "The receiver amount has more decimal places than USDTE allows (6).",
    });
    const thousandths = await fixExchangeQuote(database.db, {
      merchantId,
      senderCurrency: "BTC",
      receiverCurrency: "EUR",
      receiverAmount: units("10.001"),
      pricing: pricingWith(SPREAD_PPM),
    });
    // 10.001 EUR = 1000100000 units: 1000100000 × 27 / 1616875 = 16700 rem 887500 → 16701 units (up).
    expect(formatAmount(thousandths.receiverAmount)).toBe("10.00100000");
    expect(formatAmount(thousandths.senderAmount)).toBe("0.00016701");
  });

  it("executes a quote with exchange/fixed: debit now, credit and fee when the job confirms it", async () => {
    const quote = await fixExchangeQuote(database.db, {
      merchantId,
      senderCurrency: "BTC",
      receiverCurrency: "EUR",
      senderAmount: units("0.0123"),
      pricing: pricingWith(SPREAD_PPM),
    });
    const [btcBefore, eurBefore, feesBefore] = [
      await balance("BTC"),
      await balance("EUR"),
      await platform("platform:fees", "EUR"),
    ];
    const foreignId = nextForeignId();
    // Through the request schema, as the route parses it: the price as the wire printed it.
    const body = exchangeFixedRequest.parse({
      sender_currency: "btc",
      receiver_currency: "EUR",
      sender_amount: "0.0123",
      price: "59884.25925925",
      foreign_id: foreignId,
    });
    const accepted = await exchangeFixed(database.db, {
      merchantId,
      foreignId: body.foreign_id,
      senderCurrency: body.sender_currency,
      receiverCurrency: body.receiver_currency,
      senderAmount: body.sender_amount,
      price: body.price,
    });
    expect(accepted.price.receiverAmount).toBe(quote.receiverAmount);
    expect(await balance("BTC")).toBe(btcBefore - units("0.0123"));
    expect(await balance("EUR")).toBe(eurBefore);
    const processing = await describeTransaction(database.db, accepted.id);
    expect(processing).toMatchObject({ type: "exchange", status: "not_confirmed", foreign_id: foreignId });

    await runDueJobs(database.db, handlers);
    // 0.0123 BTC = 1230000 units: 1230000 × 1616875 / 27 = 73657638888 rem 24 → 736.57638888 EUR (down);
    // mid 1230000 × 1625000 / 27 = 74027777777 rem 21 → 740.27777777; fee 370138889 units = 3.70138889.
    expect(await balance("EUR")).toBe(eurBefore + units("736.57638888"));
    expect(await platform("platform:fees", "EUR")).toBe(feesBefore + units("3.70138889"));
    expect((await journalsOf(accepted.id)).map((j) => j.kind)).toEqual([
      "exchange_debit",
      "exchange_credit",
      "exchange",
    ]);
    expect(await findTransactionId(database.db, merchantId, { foreign_id: foreignId })).toBe(accepted.id);
    expect(await describeTransaction(database.db, accepted.id)).toEqual({
      id: accepted.id,
      foreign_id: foreignId,
      type: "exchange",
      currency_sent: { currency: "BTC", amount: "0.01230000" },
      currency_received: { currency: "EUR", amount: "736.57638888", amount_minus_fee: "736.57638888" },
      transactions: [
        {
          id: accepted.id,
          currency: "BTC",
          currency_to: "EUR",
          transaction_type: "exchange",
          type: "exchange",
          amount: "0.01230000",
          amount_to: "736.57638888",
        },
      ],
      fees: [{ type: "exchange", currency: "EUR", amount: "3.70138889" }],
      error: "",
      status: "confirmed",
      additional_details: expect.objectContaining({ exchange_kind: "fixed", price: "59884.25925925" }),
    });
    expect(await ledgerInvariants(database.db)).toEqual({
      nonZeroCurrencies: [],
      accountsNotMatchingEntries: 0,
      negativeMerchantBalances: 0,
    });

    // The quote is spent: the same price and amount again is refused.
    expect(
      await fieldsOf(
        exchangeFixed(database.db, {
          merchantId,
          foreignId: nextForeignId(),
          senderCurrency: "BTC",
          receiverCurrency: "EUR",
          senderAmount: units("0.0123"),
          price: quote.price,
        }),
      ),
    ).toEqual({ price: expect.stringContaining(`was already used by exchange ${accepted.id}`) });
  });

  it("refuses exchange/fixed at another price, another amount, or after the fix period, writing nothing", async () => {
    const clock = testClock();
    const quote = await fixExchangeQuote(database.db, {
      merchantId,
      senderCurrency: "EUR",
      receiverCurrency: "BTC",
      senderAmount: units("20"),
      pricing: pricingWith(SPREAD_PPM),
      clock,
    });
    const fixed = (input: { price?: bigint; senderAmount?: bigint }) =>
      fieldsOf(
        exchangeFixed(database.db, {
          merchantId,
          foreignId: nextForeignId(),
          senderCurrency: "EUR",
          receiverCurrency: "BTC",
          senderAmount: input.senderAmount ?? units("20"),
          price: input.price ?? quote.price,
          clock,
        }),
      );
    const before = await balance("EUR");
    expect(await fixed({ price: quote.price + 1n })).toEqual({
      price: expect.stringContaining("No quote from exchange/calculate has the price"),
    });
    expect(await fixed({ senderAmount: units("21") })).toEqual({
      price: expect.stringContaining("No quote from exchange/calculate has the price"),
    });
    clock.advance(61);
    expect(await fixed({})).toEqual({ price: expect.stringContaining("expired at") });
    expect(await balance("EUR")).toBe(before);
  });

  it("exchanges now from receiver_amount, and refuses a taken foreign_id", async () => {
    const body = exchangeNowRequest.parse({
      sender_currency: "EUR",
      receiver_currency: "BTC",
      receiver_amount: "0.001",
      foreign_id: nextForeignId(),
    });
    const before = await balance("EUR");
    const accepted = await exchangeNow(database.db, {
      merchantId,
      foreignId: body.foreign_id,
      senderCurrency: body.sender_currency,
      receiverCurrency: body.receiver_currency,
      receiverAmount: body.receiver_amount,
      pricing: pricingWith(SPREAD_PPM),
    });
    // 0.001 BTC = 100000 units at 325000000/5373 EUR per BTC: 32500000000000 / 5373 = 6048762330
    // rem 910 → 6048762331 units (up: the merchant is debited) = 60.48762331 EUR.
    expect(formatAmount(accepted.price.senderAmount)).toBe("60.48762331");
    expect(await balance("EUR")).toBe(before - units("60.48762331"));
    expect(
      await fieldsOf(
        exchangeNow(database.db, {
          merchantId,
          foreignId: body.foreign_id,
          senderCurrency: "EUR",
          receiverCurrency: "BTC",
          senderAmount: units("20"),
          pricing: pricingWith(SPREAD_PPM),
        }),
      ),
    ).toEqual({ foreign_id: "The foreign id has already been taken." });
  });

  it("refuses an exchange the balance does not cover with a field error and no ledger entries", async () => {
    const poor = await createTestMerchant(database, "Poor");
    await credit(poor, "BTC", "0.001");
    const [{ count: journalsBefore }] = (await queryRows<{ count: number }>(
      database.db,
      sql`select count(*)::int as count from journals`,
    )) as [{ count: number }];
    expect(
      await fieldsOf(
        exchangeNow(database.db, {
          merchantId: poor,
          foreignId: nextForeignId(),
          senderCurrency: "BTC",
          receiverCurrency: "EUR",
          senderAmount: units("0.002"),
          pricing: pricingWith(SPREAD_PPM),
        }),
      ),
    ).toEqual({ sender_amount: "Insufficient funds: this exchange needs 0.002 BTC from your balance." });
    const [{ count: journalsAfter }] = (await queryRows<{ count: number }>(
      database.db,
      sql`select count(*)::int as count from journals`,
    )) as [{ count: number }];
    expect(journalsAfter).toBe(journalsBefore);
    expect(await balance("BTC", poor)).toBe(units("0.001"));
    const [{ count: exchangesOfPoor }] = (await queryRows<{ count: number }>(
      database.db,
      sql`select count(*)::int as count from transactions where merchant_id = ${poor}`,
    )) as [{ count: number }];
    expect(exchangesOfPoor).toBe(0);
  });

  it("refuses an exchange whose credit would take the receiver balance past the amount cap", async () => {
    const rich = await createTestMerchant(database, "Rich");
    await credit(rich, "EUR", "100");
    // 10^20 whole units is the cap (lib/money.ts): 1 USD below it, a 53.73 USD credit cannot fit.
    await creditSandboxBalance(database.db, {
      merchantId: rich,
      currency: "USD",
      amount: 10n ** 28n - units("1"),
      isSandbox: true,
    });
    expect(
      await fieldsOf(
        exchangeNow(database.db, {
          merchantId: rich,
          foreignId: nextForeignId(),
          senderCurrency: "EUR",
          receiverCurrency: "USD",
          senderAmount: units("50"),
          pricing: pricingWith(SPREAD_PPM),
        }),
      ),
    ).toEqual({
      sender_amount: "This exchange would take your USD balance past the largest amount Kassa keeps.",
    });
    expect(await balance("EUR", rich)).toBe(units("100"));
  });

  it("never overdraws a balance when parallel exchanges drain it", async () => {
    const racer = await createTestMerchant(database, "Racer");
    await credit(racer, "BTC", "1");
    // 20 exchanges of 0.07 BTC at once against 1 BTC: exactly 14 fit (0.98), 6 are refused.
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, () =>
        exchangeNow(database.db, {
          merchantId: racer,
          foreignId: nextForeignId(),
          senderCurrency: "BTC",
          receiverCurrency: "EUR",
          senderAmount: units("0.07"),
          pricing: pricingWith(SPREAD_PPM),
        }),
      ),
    );
    const accepted = results.filter((r) => r.status === "fulfilled");
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(accepted).toHaveLength(14);
    for (const r of refused) {
      expect(r.reason.fields).toEqual({
        sender_amount: "Insufficient funds: this exchange needs 0.07 BTC from your balance.",
      });
    }
    expect(await balance("BTC", racer)).toBe(units("0.02"));
    await runDueJobs(database.db, handlers);
    // 0.07 BTC = 7000000 units: 7000000 × 1616875 / 27 = 419189814814 rem 22 → 4191.89814814 EUR each
    // (down), rounded per exchange: 14 × 419189814814 = 5868657407396 units = 58686.57407396 EUR.
    expect(await balance("EUR", racer)).toBe(units("58686.57407396"));
    expect(await ledgerInvariants(database.db)).toEqual({
      nonZeroCurrencies: [],
      accountsNotMatchingEntries: 0,
      negativeMerchantBalances: 0,
    });
  });

  // PGlite has a single session, so no second one can hold the balance row; on PostgreSQL it can.
  if (testDriver === "pg") {
    it(`lets ${BALANCE_WRITERS} of a burst of one merchant's exchanges wait on its balance, the rest in turn, and leaves connections for everyone else`, async () => {
      const burst = await createTestMerchant(database, "Burst");
      const bystander = await createTestMerchant(database, "Bystander");
      await credit(burst, "BTC", "1");
      await credit(bystander, "BTC", "1");
      const exchange = (merchant: number) =>
        exchangeNow(database.db, {
          merchantId: merchant,
          foreignId: nextForeignId(),
          senderCurrency: "BTC",
          receiverCurrency: "EUR",
          senderAmount: units("0.01"),
          pricing: pricingWith(SPREAD_PPM),
        });
      let results: Promise<PromiseSettledResult<unknown>[]> | undefined;
      await whileBalanceHeld(database, { merchantId: burst, currency: "BTC" }, async () => {
        // More exchanges than the test database's 20 pooled connections.
        results = Promise.allSettled(Array.from({ length: 30 }, () => exchange(burst)));
        await waitUntil(async () => (await lockWaiters(database.db)) >= BALANCE_WRITERS, {
          what: "the first of the burst wait for the balance row",
        });
        let isBystanderDone = false;
        void exchange(bystander).finally(() => {
          isBystanderDone = true;
        });
        await waitUntil(() => isBystanderDone, {
          what: "another merchant's exchange is written while the burst waits",
        });
        expect(await lockWaiters(database.db)).toBe(BALANCE_WRITERS);
      });
      const outcomes = await results!;
      expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(30);
      expect(await balance("BTC", burst)).toBe(units("0.7"));
      expect(await balance("BTC", bystander)).toBe(units("0.99"));
    });
  }

  it("executes one quote once when the same exchange/fixed arrives several times at once", async () => {
    const quote = await fixExchangeQuote(database.db, {
      merchantId,
      senderCurrency: "BTC",
      receiverCurrency: "USD",
      senderAmount: units("0.0042"),
      pricing: pricingWith(SPREAD_PPM),
    });
    const before = await balance("BTC");
    const results = await Promise.allSettled(
      Array.from({ length: 5 }, () =>
        exchangeFixed(database.db, {
          merchantId,
          foreignId: nextForeignId(),
          senderCurrency: "BTC",
          receiverCurrency: "USD",
          senderAmount: units("0.0042"),
          price: quote.price,
        }),
      ),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of results.filter((r): r is PromiseRejectedResult => r.status === "rejected")) {
      expect(r.reason.fields.price).toMatch(/was already used by exchange|is being used by another/);
    }
    expect(await balance("BTC")).toBe(before - units("0.0042"));
  });

  it("queues one exchange callback with the transactions/info body when the exchange is confirmed", async () => {
    const hooked = await createTestMerchant(database, "Hooked");
    await credit(hooked, "EUR", "100");
    await setCallbackUrl(database.db, {
      merchantId: hooked,
      url: "http://127.0.0.1:9/hook",
      mode: "sandbox",
    });
    const accepted = await exchangeNow(database.db, {
      merchantId: hooked,
      foreignId: nextForeignId(),
      senderCurrency: "EUR",
      receiverCurrency: "USD",
      senderAmount: units("50"),
      pricing: pricingWith(SPREAD_PPM),
    });
    const callbacksOf = () =>
      queryRows<{ event: string; body: string }>(
        database.db,
        sql`select event, body from callbacks where transaction_id = ${accepted.id}`,
      );
    expect(await callbacksOf()).toEqual([]);
    await runDueJobs(database.db, handlers);
    const sent = await callbacksOf();
    expect(sent.map((c) => c.event)).toEqual(["exchange.confirmed"]);
    // 50 × 1.08 × 0.995 / 1 = 53.73 USD exactly; mid 54.00; fee 0.27 USD.
    expect(JSON.parse(sent[0]!.body)).toMatchObject({
      id: accepted.id,
      type: "exchange",
      status: "confirmed",
      currency_received: { currency: "USD", amount: "53.73000000" },
      fees: [{ type: "exchange", currency: "USD", amount: "0.27000000" }],
    });
    // A second run of the job (a retry) finds it confirmed: no second credit, no second callback.
    await inTransaction(database.db, (tx) => settleExchange(tx, accepted.id));
    expect(await balance("USD", hooked)).toBe(units("53.73"));
    expect(await callbacksOf()).toHaveLength(1);
  });

  it("is found in the explorer by the exchange kind, with its detail and timeline", async () => {
    const shown = await createTestMerchant(database, "Shown");
    await credit(shown, "BTC", "0.1");
    const foreignId = nextForeignId();
    const accepted = await exchangeNow(database.db, {
      merchantId: shown,
      foreignId,
      senderCurrency: "BTC",
      receiverCurrency: "LTC",
      senderAmount: units("0.01"),
      pricing: pricingWith(SPREAD_PPM),
    });
    await runDueJobs(database.db, handlers);
    const { filter } = parseFilter(new URLSearchParams({ type: "exchange" }));
    const page = await listTransactions(database.db, { merchantId: shown, filter });
    expect(page.rows.map((row) => [row.id, row.type, row.currency, row.amount, row.foreign_id])).toEqual([
      [accepted.id, "exchange", "BTC", "0.01000000", foreignId],
    ]);
    const other = await listTransactions(database.db, {
      merchantId: shown,
      filter: parseFilter(new URLSearchParams({ type: "withdrawal" })).filter,
    });
    expect(other.rows).toEqual([]);
    const detail = await transactionDetail(database.db, shown, accepted.id);
    expect(detail!.timeline.map((event) => event.to)).toEqual(["processing", "confirmed"]);
    // 0.01 × 65000 × 0.995 / 80 = 8.084375 LTC exactly; mid 8.125; fee 0.040625 LTC.
    expect(detail!.transaction.fees).toEqual([
      { type: "fee_crypto_exchange_to_crypto", currency: "LTC", amount: "0.04062500" },
    ]);
    expect(await transactionDetail(database.db, merchantId, accepted.id)).toBeUndefined();
  });
});
