import "server-only";

import { assertFitsPrecision } from "@/lib/currencies/precision";
import { getCurrency } from "@/lib/currencies/registry";
import type { Executor } from "@/lib/db/client";
import { fieldError } from "@/lib/errors";
import { divide, formatAmountShort, MAX_AMOUNT, UNIT } from "@/lib/money";
import type { Pricing } from "@/lib/rates/pricing";
import { convert, invert, type Rate } from "@/lib/rates/rate";
import { quote, RateUnavailableError } from "@/lib/rates/rates";
import { exchangeFeeType } from "./exchange-fee-type";

/** The public API's words when a pair cannot be exchanged (api-reference.md, exchange/calculate). */
export const EXCHANGE_UNAVAILABLE = { sender_currency: "Exchange is unavailable for given currencies" };

export type ExchangePrice = {
  senderCurrency: string;
  receiverCurrency: string;
  /** Leaves the sender balance. */
  senderAmount: bigint;
  /** Reaches the receiver balance. */
  receiverAmount: bigint;
  /** The spread Kassa keeps, in the receiver currency: the mid-rate value less what is received. */
  feeAmount: bigint;
  feeType: string;
  rate: Rate;
  midRate: Rate;
  spreadPpm: number;
  /** The rate as the wire shows it (8 digits, rounded down): what /exchange/fixed sends back. */
  price: bigint;
};

/**
 * Every figure of a balance-to-balance exchange, at the current rate (mid rate less the spread),
 * from `senderAmount` or from `receiverAmount`. Each derived amount is converted once and rounded
 * against the merchant to the currency's precision: what is received down, what is sent up.
 */
export async function priceExchange(
  db: Executor,
  input: {
    merchantId: number;
    senderCurrency: string;
    receiverCurrency: string;
    senderAmount?: bigint;
    receiverAmount?: bigint;
    pricing: Pricing;
  },
): Promise<ExchangePrice> {
  const source = getCurrency(input.senderCurrency);
  const target = getCurrency(input.receiverCurrency);
  if (source.code === target.code) throw fieldError(EXCHANGE_UNAVAILABLE);
  let rates: { rate: Rate; midRate: Rate; spreadPpm: number };
  try {
    rates = await quote(db, {
      merchantId: input.merchantId,
      from: source.code,
      to: target.code,
      spreadPpm: input.pricing.spreadPpm,
    });
  } catch (error) {
    if (error instanceof RateUnavailableError) throw fieldError(EXCHANGE_UNAVAILABLE);
    throw error;
  }
  const { rate, midRate, spreadPpm } = rates;
  const field = input.senderAmount !== undefined ? "sender_amount" : "receiver_amount";
  let senderAmount: bigint;
  let receiverAmount: bigint;
  if (input.senderAmount !== undefined) {
    senderAmount = input.senderAmount;
    assertFitsPrecision({ units: senderAmount, currency: source.code, field });
    receiverAmount = convert(senderAmount, rate, "down", target.precision);
  } else {
    receiverAmount = input.receiverAmount!;
    assertFitsPrecision({ units: receiverAmount, currency: target.code, field });
    senderAmount = convert(receiverAmount, invert(rate), "up", source.precision);
  }
  if (senderAmount > MAX_AMOUNT || receiverAmount > MAX_AMOUNT) {
    throw fieldError({ [field]: "The amount is too large to exchange." });
  }
  if (senderAmount < source.minimumAmount) {
    throw fieldError({
      [field]: `The amount must be at least ${formatAmountShort(source.minimumAmount)} ${source.code}.`,
    });
  }
  if (receiverAmount <= 0n) {
    throw fieldError({ [field]: `The amount is too small: it would buy no ${target.code}.` });
  }
  // The fee is what the spread kept: the same sender amount at the mid rate, less what is received.
  const midValue = convert(senderAmount, midRate, "down", target.precision);
  const feeAmount = midValue > receiverAmount ? midValue - receiverAmount : 0n;
  return {
    senderCurrency: source.code,
    receiverCurrency: target.code,
    senderAmount,
    receiverAmount,
    feeAmount,
    feeType: exchangeFeeType(source.code, target.code),
    rate,
    midRate,
    spreadPpm,
    price: priceOf(rate),
  };
}

/** The displayed price of a rate in minor units: the digits formatRate prints (8, rounded down). */
export function priceOf(rate: Rate): bigint {
  return divide(rate.numerator * UNIT, rate.denominator, "down");
}
