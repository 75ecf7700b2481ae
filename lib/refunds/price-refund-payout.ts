import "server-only";

import { getCurrency } from "@/lib/currencies/registry";
import type { Executor } from "@/lib/db/client";
import { fieldError } from "@/lib/errors";
import { convert } from "@/lib/rates/rate";
import { quote, RateUnavailableError } from "@/lib/rates/rates";

export type RefundPayoutPrice = {
  currency: string;
  /** What reaches the customer's address, in `currency`. */
  receives: bigint;
  /** The network's fee in `currency`: paid by the merchant, or already taken off `receives`. */
  networkFee: bigint;
  /** The smallest amount the network sends; `receives` under it cannot be sent. */
  minimum: bigint;
  isUnderMinimum: boolean;
  /** The payout that sends it: from the merchant's balance in the invoice currency. */
  withdrawal: {
    kind: "withdrawal" | "withdrawal_exchange";
    source: string;
    target: string;
    amountTo: bigint;
  };
};

/**
 * What a refund sends to the customer in `currency`. In the coin they paid: what it settles
 * (`owedAmount`), as it is. In another coin: that amount's worth at the payment's rate
 * (`paymentValue`, invoice currency) or at today's, converted at today's mid rate, rounded down
 * once. The merchant's balance pays the conversion spread (the payout fixes what arrives). With
 * `feePaidBy: "customer"` the network fee comes off what arrives.
 */
export async function priceRefundPayout(
  db: Executor,
  input: {
    merchantId: number;
    invoiceCurrency: string;
    payCurrency: string;
    owedAmount: bigint;
    paymentValue: bigint;
    rateBasis: "payment" | "now";
    feePaidBy: "merchant" | "customer";
    currency: string;
  },
): Promise<RefundPayoutPrice> {
  const target = getCurrency(input.currency);
  let worth: bigint;
  if (target.code === input.payCurrency) worth = input.owedAmount;
  else {
    const [from, amount] =
      input.rateBasis === "payment"
        ? [input.invoiceCurrency, input.paymentValue]
        : [input.payCurrency, input.owedAmount];
    try {
      // The mid-market rate: a refund is valued without Kassa's spread.
      const { midRate } = await quote(db, {
        merchantId: input.merchantId,
        from,
        to: target.code,
        spreadPpm: 0,
      });
      worth = convert(amount, midRate, "down", target.precision);
    } catch (error) {
      if (error instanceof RateUnavailableError)
        throw fieldError({ currency: `A refund in ${target.code} cannot be priced right now.` });
      throw error;
    }
  }
  const fee = target.networkFee;
  const receives = input.feePaidBy === "customer" ? (worth > fee ? worth - fee : 0n) : worth;
  const minimum = target.minimumWithdrawalAmount;
  return {
    currency: target.code,
    receives,
    networkFee: fee,
    minimum,
    isUnderMinimum: receives < minimum,
    withdrawal: {
      kind: input.invoiceCurrency === target.code ? "withdrawal" : "withdrawal_exchange",
      source: input.invoiceCurrency,
      target: target.code,
      amountTo: receives,
    },
  };
}
