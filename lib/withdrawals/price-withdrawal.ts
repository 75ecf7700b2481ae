import { getCurrency } from "@/lib/currencies/registry";
import type { Executor } from "@/lib/db/client";
import { fieldError } from "@/lib/errors";
import { divide, formatAmountShort, multiply, percentOf, roundToPrecision, UNIT } from "@/lib/money";
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
  rate: bigint | null;
  midRate: bigint | null;
  spreadPpm: number | null;
};

function assertPrecision(value: bigint, currency: string, field: string) {
  const { precision, code } = getCurrency(currency);
  if (roundToPrecision(value, precision, "down") !== value) {
    throw fieldError({
      [field]: `The ${field.replace(/_/g, " ")} has more decimal places than ${code} allows (${precision}).`,
    });
  }
}

/**
 * Every figure of a withdrawal, fixed once: from `amount` (source currency) or `amountTo` (target
 * currency). Conversions use the current rate with the spread, rounded down, and round each derived
 * amount once against the merchant by at most one smallest unit: what is sent down, what is
 * debited up. Fees: the source currency's withdrawal percentage of the principal, plus the target
 * network's fee (converted to the source currency, rounded up). Used by withdrawals and by
 * /exchange/calculate, so a quote and the withdrawal that follows it agree.
 */
export async function priceWithdrawal(
  db: Executor,
  input: {
    source: string;
    target: string;
    amount?: bigint;
    amountTo?: bigint;
    spreadPpm: number;
    fields?: { amount: string; amountTo: string };
  },
): Promise<WithdrawalPrice> {
  const fields = input.fields ?? { amount: "amount", amountTo: "amount_to" };
  const source = getCurrency(input.source);
  const target = getCurrency(input.target);
  if (target.kind !== "crypto")
    throw fieldError({ currency: `${target.code} cannot be sent to an address.` });

  let rate: bigint | null = null;
  let midRate: bigint | null = null;
  let spreadPpm: number | null = null;
  let principal: bigint;
  let sent: bigint;
  let networkFee = target.networkFee;
  if (source.code === target.code) {
    principal = input.amount ?? input.amountTo!;
    assertPrecision(principal, source.code, fields.amount);
    sent = principal;
  } else {
    try {
      ({ rate, midRate, spreadPpm } = await quote(db, {
        from: source.code,
        to: target.code,
        spreadPpm: input.spreadPpm,
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
      assertPrecision(principal, source.code, fields.amount);
      sent = roundToPrecision(multiply(principal, rate, "down"), target.precision, "down");
    } else {
      sent = input.amountTo!;
      assertPrecision(sent, target.code, fields.amountTo);
      principal = roundToPrecision(divide(sent * UNIT, rate, "up"), source.precision, "up");
    }
    networkFee = roundToPrecision(divide(target.networkFee * UNIT, rate, "up"), source.precision, "up");
  }

  const minimumField = input.amount !== undefined ? fields.amount : fields.amountTo;
  if (sent < target.minimumWithdrawalAmount) {
    throw fieldError({
      [minimumField]: `The amount sent must be at least ${formatAmountShort(target.minimumWithdrawalAmount)} ${target.code}.`,
    });
  }
  if (source.code !== target.code && principal < source.minimumWithdrawalAmount) {
    throw fieldError({
      [minimumField]: `The amount must be at least ${formatAmountShort(source.minimumWithdrawalAmount)} ${source.code}.`,
    });
  }
  const withdrawalFee = roundToPrecision(
    percentOf(principal, source.withdrawalFeePpm, "up"),
    source.precision,
    "up",
  );
  return {
    source: source.code,
    target: target.code,
    principal,
    sent,
    withdrawalFee,
    networkFee,
    totalDebit: principal + withdrawalFee + networkFee,
    rate,
    midRate,
    spreadPpm,
  };
}
