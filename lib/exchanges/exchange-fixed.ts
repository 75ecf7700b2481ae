import "server-only";

import { and, desc, eq, isNull, type SQL, sql } from "drizzle-orm";
import { type Clock, sqlNow, systemClock } from "@/lib/clock";
import type { Db, Tx } from "@/lib/db/client";
import { exchangeQuotes } from "@/lib/db/schema";
import { inTransaction } from "@/lib/db/transaction";
import { fieldError } from "@/lib/errors";
import { inBalanceQueue } from "@/lib/ledger/balance-queue";
import { formatAmount } from "@/lib/money";
import { makeRate } from "@/lib/rates/rate";
import { exchangeFeeType } from "./exchange-fee-type";
import type { AcceptedExchange } from "./exchange-now";
import { mapExchangeError } from "./map-exchange-error";
import type { ExchangePrice } from "./price-exchange";
import { recordExchange } from "./record-exchange";
import type { ExchangeOrder } from "./to-exchange-order";

type Quote = typeof exchangeQuotes.$inferSelect;

export type ExchangeFixedInput = ExchangeOrder & {
  /** The `price` an /exchange/calculate answered, in minor units. */
  price: bigint;
  clock?: Clock;
};

/**
 * /exchange/fixed: executes a quote of /exchange/calculate, with its amounts and its exact rate,
 * only while its fix period runs and only once. The quote is found by the merchant, the pair, the
 * price and the amount given (sender_amount, or receiver_amount), and locked with the exchange's
 * writes in one transaction, so two requests never execute the same quote. Anything else is a field
 * error on `price` saying why (no such quote, expired, already executed).
 */
export async function exchangeFixed(db: Db, input: ExchangeFixedInput): Promise<AcceptedExchange> {
  const clock = input.clock ?? systemClock;
  const amountField = input.senderAmount !== undefined ? "sender_amount" : "receiver_amount";
  let claimed: ExchangePrice | undefined;
  try {
    // The debit waits its turn for the sender balance (lib/ledger/balance-queue.ts).
    const execute = () =>
      inTransaction(db, async (tx) => {
        const [quote] = await tx
          .select()
          .from(exchangeQuotes)
          .where(
            and(matching(input), isNull(exchangeQuotes.transactionId), sql`release_at > ${sqlNow(clock)}`),
          )
          .orderBy(desc(exchangeQuotes.id))
          .limit(1)
          .for("update", { skipLocked: true });
        if (!quote) throw await whyNoQuote(tx, input, clock);
        claimed = priceOfQuote(quote);
        const created = await recordExchange(tx, {
          merchantId: input.merchantId,
          apiKeyId: input.apiKeyId,
          foreignId: input.foreignId,
          kind: "fixed",
          price: claimed,
          quoteId: quote.id,
          amountField,
          clock,
        });
        await tx
          .update(exchangeQuotes)
          .set({ transactionId: created })
          .where(eq(exchangeQuotes.id, quote.id));
        return created;
      });
    const id = await inBalanceQueue(input.merchantId, input.senderCurrency, execute);
    return { id, foreignId: input.foreignId, price: claimed! };
  } catch (error) {
    const mapped =
      claimed &&
      mapExchangeError(error, {
        amountField,
        senderCurrency: claimed.senderCurrency,
        senderAmount: claimed.senderAmount,
      });
    throw mapped ?? error;
  }
}

/** The merchant's quotes for this pair, price and amount, whatever their state. */
function matching(input: ExchangeFixedInput): SQL {
  return and(
    eq(exchangeQuotes.merchantId, input.merchantId),
    eq(exchangeQuotes.senderCurrency, input.senderCurrency),
    eq(exchangeQuotes.receiverCurrency, input.receiverCurrency),
    eq(exchangeQuotes.price, input.price),
    input.senderAmount !== undefined
      ? eq(exchangeQuotes.senderAmount, input.senderAmount)
      : eq(exchangeQuotes.receiverAmount, input.receiverAmount!),
  )!;
}

/** The field error for a price no open quote carries: expired, already used, or never quoted. */
async function whyNoQuote(tx: Tx, input: ExchangeFixedInput, clock: Clock): Promise<Error> {
  const [latest] = await tx
    .select({
      releaseAt: exchangeQuotes.releaseAt,
      transactionId: exchangeQuotes.transactionId,
      // Judged by the same clock as the open-quote query, so a quote is never both open and expired.
      isExpired: sql<boolean>`${exchangeQuotes.releaseAt} <= ${sqlNow(clock)}`,
    })
    .from(exchangeQuotes)
    .where(matching(input))
    .orderBy(desc(exchangeQuotes.id))
    .limit(1);
  const asked = `${formatAmount(input.price)} ${input.receiverCurrency} per ${input.senderCurrency}`;
  if (latest?.transactionId != null) {
    return fieldError({
      price: `The price ${asked} was already used by exchange ${latest.transactionId}; request a new one with exchange/calculate.`,
    });
  }
  if (latest?.isExpired) {
    return fieldError({
      price: `The price ${asked} expired at ${latest.releaseAt.toISOString()} (its fix period ended); request a new one with exchange/calculate.`,
    });
  }
  if (latest) {
    // Open, yet skipped: another request holds it and is executing it right now.
    return fieldError({ price: `The price ${asked} is being used by another exchange request.` });
  }
  return fieldError({
    price: `No quote from exchange/calculate has the price ${asked} for this amount; request one with exchange/calculate and send its price and ${input.senderAmount !== undefined ? "sender_amount" : "receiver_amount"}.`,
  });
}

/** A stored quote as the figures of the exchange that executes it. */
function priceOfQuote(quote: Quote): ExchangePrice {
  return {
    senderCurrency: quote.senderCurrency,
    receiverCurrency: quote.receiverCurrency,
    senderAmount: quote.senderAmount,
    receiverAmount: quote.receiverAmount,
    feeAmount: quote.feeAmount,
    feeType: exchangeFeeType(quote.senderCurrency, quote.receiverCurrency),
    rate: makeRate(quote.rateNumerator, quote.rateDenominator),
    midRate: makeRate(quote.midRateNumerator, quote.midRateDenominator),
    spreadPpm: quote.spreadPpm,
    price: quote.price,
  };
}
