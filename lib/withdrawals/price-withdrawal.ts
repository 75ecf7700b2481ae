import "server-only";

import { assertFitsPrecision } from "@/lib/currencies/precision";
import { getCurrency } from "@/lib/currencies/registry";
import type { Executor } from "@/lib/db/client";
import { fieldError } from "@/lib/errors";
import { formatAmountShort, MAX_AMOUNT, percentOf, roundToPrecision } from "@/lib/money";
import type { Pricing } from "@/lib/rates/pricing";
import { convert, invert, type Rate } from "@/lib/rates/rate";
import { quote, RateUnavailableError } from "@/lib/rates/rates";

export type WithdrawalPrice = {
  source: string;
  target: string;
  /** Withdrawn from the balance before fees, in the source currency. */
  principal: bigint;
  /** What arrives at the address, in the target currency. */
  sent: bigint;
  withdrawalFee: bigint;
  /** The target network's fee, in the source currency. */
  networkFee: bigint;
  totalDebit: bigint;
  rate: Rate | null;
  midRate: Rate | null;
  spreadPpm: number | null;
};

/**
 * Every figure of a withdrawal, fixed once, from `amount` (source currency) or `amountTo` (target). At the
 * exact current rate with spread (lib/rates/rate.ts), each derived amount rounded once against the merchant
 * by at most one unit: sent down, debited up. Fee: the source's withdrawal percentage plus the target
 * network's fee (converted, rounded up). Shared with /exchange/calculate: a quote and its withdrawal agree.
 */
export async function priceWithdrawal(
  db: Executor,
  input: {
    merchantId: number;
    source: string;
    target: string;
    amount?: bigint;
    amountTo?: bigint;
    pricing: Pricing;
    fields?: { amount: string; amountTo: string };
    /**
     * A refund of an invoice: only the network's minimum applies. The source currency's minimum is
     * a floor for conversions a merchant asks for; a refund's conversion only books what it owes
     * back from the balance, and small refunds are exactly the ones owed most often.
     */
    isRefund?: boolean;
  },
): Promise<WithdrawalPrice> {
  const fields = input.fields ?? { amount: "amount", amountTo: "amount_to" };
  const source = getCurrency(input.source);
  const target = getCurrency(input.target);
  if (target.kind !== "crypto")
    throw fieldError({ currency: `${target.code} cannot be sent to an address.` });

  let rate: Rate | null = null;
  let midRate: Rate | null = null;
  let spreadPpm: number | null = null;
  let principal: bigint;
  let sent: bigint;
  let networkFee = target.networkFee;
  if (source.code === target.code) {
    principal = input.amount ?? input.amountTo!;
    assertFitsPrecision({ units: principal, currency: source.code, field: fields.amount });
    sent = principal;
  } else {
    try {
      ({ rate, midRate, spreadPpm } = await quote(db, {
        merchantId: input.merchantId,
        from: source.code,
        to: target.code,
        spreadPpm: input.pricing.spreadPpm,
      }));
    } catch (error) {
      if (error instanceof RateUnavailableError) {
        throw fieldError({
          convert_to: `Conversion from ${source.code} to ${target.code} is unavailable right now.`,
        });
      }
      throw error;
    }
    if (input.amount !== undefined) {
      principal = input.amount;
      assertFitsPrecision({ units: principal, currency: source.code, field: fields.amount });
      sent = convert(principal, rate, "down", target.precision);
    } else {
      sent = input.amountTo!;
      assertFitsPrecision({ units: sent, currency: target.code, field: fields.amountTo });
      principal = convert(sent, invert(rate), "up", source.precision);
    }
    networkFee = convert(target.networkFee, invert(rate), "up", source.precision);
  }

  const minimumField = input.amount !== undefined ? fields.amount : fields.amountTo;
  if (principal > MAX_AMOUNT || sent > MAX_AMOUNT) {
    throw fieldError({ [minimumField]: "The amount is too large to convert." });
  }
  if (sent < target.minimumWithdrawalAmount) {
    throw fieldError({
      [minimumField]: `The amount sent must be at least ${formatAmountShort(target.minimumWithdrawalAmount)} ${target.code}.`,
    });
  }
  if (source.code !== target.code && !input.isRefund && principal < source.minimumWithdrawalAmount) {
    throw fieldError({
      [minimumField]: `The amount must be at least ${formatAmountShort(source.minimumWithdrawalAmount)} ${source.code}.`,
    });
  }
  const withdrawalFee = roundToPrecision(
    percentOf(principal, source.withdrawalFeePpm, "up"),
    source.precision,
    "up",
  );
  const totalDebit = principal + withdrawalFee + networkFee;
  if (totalDebit > MAX_AMOUNT) {
    throw fieldError({ [minimumField]: "The amount with its fees is too large." });
  }
  return {
    source: source.code,
    target: target.code,
    principal,
    sent,
    withdrawalFee,
    networkFee,
    totalDebit,
    rate,
    midRate,
    spreadPpm,
  };
}
