import "server-only";

import { z } from "zod";
import { defineEndpoint } from "@/lib/api/endpoint";
import { amount, refinePrecision, wireAmount } from "./amount";
import { currencyCode, foreignId } from "./fields";

/** `sender_amount` or `receiver_amount`, exactly one of them (exchange/calculate, fixed and now). */
function exactlyOneAmount(value: { sender_amount?: bigint; receiver_amount?: bigint }, ctx: z.RefinementCtx) {
  if ((value.sender_amount === undefined) === (value.receiver_amount === undefined)) {
    ctx.addIssue({
      code: "custom",
      path: [value.sender_amount === undefined ? "sender_amount" : "receiver_amount"],
      message: "Exactly one of sender_amount and receiver_amount is required.",
    });
  }
}

const pairFields = {
  sender_currency: currencyCode.meta({ description: "The balance to exchange from.", example: "BTC" }),
  receiver_currency: currencyCode.meta({ description: "The balance to exchange into.", example: "EUR" }),
  sender_amount: amount.optional().meta({
    description: "Amount taken from the sender balance. Exactly one of sender_amount and receiver_amount.",
  }),
  receiver_amount: amount.optional().meta({
    description: "Amount to reach the receiver balance. Exactly one of sender_amount and receiver_amount.",
  }),
};
const precisions = refinePrecision({
  sender_amount: "sender_currency",
  receiver_amount: "receiver_currency",
});

export const exchangeCalculateRequest = z
  .object(pairFields)
  .superRefine(exactlyOneAmount)
  .superRefine(precisions)
  .meta({ id: "ExchangeCalculateRequest" });

export const FIX_PERIOD_DESCRIPTION =
  "The price is fixed for `fix_period` (60) seconds, from `ts_fixed` to `ts_release` (unix seconds): until then " +
  "`/exchange/fixed` with this price and amount executes exactly these figures, once.";

export const exchangeCalculateEndpoint = defineEndpoint({
  method: "POST",
  path: "/exchange/calculate",
  summary: "Quote an exchange",
  description:
    "What exchanging one balance into another gets now, in either direction (crypto to fiat, fiat to crypto, crypto " +
    "to crypto), from `sender_amount` or from `receiver_amount`. `price` is receiver_currency per one sender_currency, " +
    "spread included; `fee_amount` (in `fee_currency`, the receiver currency) is what the spread keeps. " +
    `${FIX_PERIOD_DESCRIPTION} Counts against the API key's rate limit like every signed request (429 beyond it).`,
  tag: "Exchange",
  isSigned: true,
  request: exchangeCalculateRequest,
  response: z
    .object({
      sender_amount: wireAmount,
      sender_currency: z.string(),
      receiver_amount: wireAmount,
      receiver_currency: z.string(),
      fee_amount: wireAmount,
      fee_currency: z.string(),
      price: wireAmount.meta({ description: "receiver_currency per one sender_currency, spread included." }),
      ts_fixed: z.int(),
      ts_release: z.int(),
      fix_period: z.int(),
    })
    .meta({ id: "ExchangeQuote" }),
  successStatus: 200,
});

export const exchangeNowRequest = z
  .object({ ...pairFields, foreign_id: foreignId })
  .superRefine(exactlyOneAmount)
  .superRefine(precisions)
  .meta({ id: "ExchangeNowRequest" });

export const exchangeFixedRequest = z
  .object({
    ...pairFields,
    foreign_id: foreignId,
    price: amount.meta({
      description: "The `price` exchange/calculate answered.",
      example: "59884.25925925",
    }),
  })
  .superRefine(exactlyOneAmount)
  .superRefine(precisions)
  .meta({ id: "ExchangeFixedRequest" });

const exchangeResponse = z
  .object({
    id: z.int(),
    foreign_id: z.string(),
    type: z.literal("exchange"),
    sender_amount: wireAmount,
    sender_currency: z.string(),
    receiver_amount: wireAmount,
    receiver_currency: z.string(),
    fee_amount: wireAmount,
    fee_currency: z.string(),
    price: wireAmount,
    status: z.literal("processing"),
  })
  .meta({ id: "Exchange" });

const EXCHANGE_LIFE =
  "The sender balance is debited at once (400 with nothing written when it does not cover `sender_amount`); the " +
  "exchange is `processing` until the job runner credits the receiver balance and confirms it, moments later, " +
  "with an `exchange` callback. `transactions/info` finds it by `id` or `foreign_id`. Your withdrawal limits hold " +
  "exchanges too, in both currencies (what is sold and what is bought): as an exchange has no approval, one over a " +
  "limit is a 400 on the amount field naming the limit and what is left of it today, with nothing written.";

export const exchangeFixedEndpoint = defineEndpoint({
  method: "POST",
  path: "/exchange/fixed",
  movesMoney: true,
  summary: "Exchange at a quoted price",
  description:
    "Executes a quote of `/exchange/calculate`: the same currencies, the same `sender_amount` (or `receiver_amount`) " +
    "and its `price`, before its `ts_release`. An expired, unknown or already executed price is a 400 on `price`. " +
    EXCHANGE_LIFE,
  tag: "Exchange",
  isSigned: true,
  isIdempotent: true,
  request: exchangeFixedRequest,
  response: exchangeResponse,
  successStatus: 201,
});

export const exchangeNowEndpoint = defineEndpoint({
  method: "POST",
  path: "/exchange/now",
  movesMoney: true,
  summary: "Exchange at the current rate",
  description: `Exchanges at the rate of the moment, without a quote. ${EXCHANGE_LIFE}`,
  tag: "Exchange",
  isSigned: true,
  isIdempotent: true,
  request: exchangeNowRequest,
  response: exchangeResponse,
  successStatus: 201,
});

const currencyPair = z
  .object({
    currency_from: z.object({
      currency: z.string(),
      type: z.enum(["crypto", "fiat"]),
      min_amount: wireAmount,
      min_amount_deposit_with_exchange: wireAmount.optional(),
    }),
    currency_to: z.object({ currency: z.string(), type: z.enum(["crypto", "fiat"]) }),
    rate_from: z.literal("1"),
    rate_to: wireAmount.meta({ description: "currency_to per one currency_from, spread included." }),
  })
  .meta({ id: "CurrencyPair" });

export const currencyPairsRequest = z
  .object({
    currency_from: currencyCode.optional().meta({ description: "Only pairs exchanging from this currency." }),
    currency_to: currencyCode.optional().meta({ description: "Only pairs exchanging into this currency." }),
  })
  .meta({ id: "CurrencyPairsRequest" });

export const currencyPairsEndpoint = defineEndpoint({
  method: "POST",
  path: "/currencies/pairs",
  summary: "List exchangeable pairs",
  description:
    "Every pair of offered currencies with its current rate (the one exchanges and conversions use). " +
    "`min_amount` is the smallest exchange from `currency_from`.",
  tag: "Exchange",
  isSigned: true,
  request: currencyPairsRequest,
  response: z.array(currencyPair),
  successStatus: 200,
});

export const currencyRatesRequest = z
  .object({ currency_from: currencyCode, currency_to: currencyCode })
  .meta({ id: "CurrencyRatesRequest" });

export const currencyRatesEndpoint = defineEndpoint({
  method: "POST",
  path: "/currencies/rates",
  summary: "Rate of one pair",
  description:
    "The pair `currency_from` → `currency_to` as `/currencies/pairs` lists it, in a one-element list.",
  tag: "Exchange",
  isSigned: true,
  request: currencyRatesRequest,
  response: z.array(currencyPair),
  successStatus: 200,
});
