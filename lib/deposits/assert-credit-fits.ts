import "server-only";

import { and, eq } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { deposits, transactions } from "@/lib/db/schema";
import { fieldError } from "@/lib/errors";
import { readBalance } from "@/lib/ledger/read-balance";
import { fitsCap } from "@/lib/money";
import type { Pricing } from "@/lib/rates/pricing";
import { storedRate } from "@/lib/rates/rate";
import { quote, RateUnavailableError } from "@/lib/rates/rates";
import { computeCredit } from "./compute-credit";
import type { PaymentRates } from "./rate-payment";

type Payment = {
  merchantId: number;
  payCurrency: string;
  creditCurrency: string;
  amount: bigint;
  rates: PaymentRates;
};

/** What a payment will credit (gross), or 0 when no rate can be had for it now. */
async function grossOf(db: Executor, payment: Payment, pricing: Pricing): Promise<bigint> {
  const { rates } = payment;
  let rest = rates.rate;
  if (rest === null && rates.lockedAmount < payment.amount) {
    try {
      rest = (
        await quote(db, {
          merchantId: payment.merchantId,
          from: payment.payCurrency,
          to: payment.creditCurrency,
          spreadPpm: pricing.spreadPpm,
        })
      ).rate;
    } catch (error) {
      if (error instanceof RateUnavailableError) return 0n;
      throw error;
    }
  }
  const parts = [];
  if (rates.lockedAmount > 0n && rates.lockedRate)
    parts.push({ amount: rates.lockedAmount, rate: rates.lockedRate });
  if (rest && payment.amount > rates.lockedAmount)
    parts.push({ amount: payment.amount - rates.lockedAmount, rate: rest });
  return computeCredit({ parts, payCurrency: payment.payCurrency, creditCurrency: payment.creditCurrency })
    .gross;
}

/**
 * Refuses (field error on `amount`) a payment whose credit, with the merchant's balance and the
 * payments seen but not yet credited into the same currency, would pass the amount cap: a balance
 * above the cap could no longer be read or spent. Used where the client chooses the
 * payment (the sandbox chain); a real chain's payment cannot be refused.
 */
export async function assertCreditFits(
  db: Executor,
  input: Payment & { merchantId: number; pricing: Pricing },
): Promise<void> {
  const balance = await readBalance(db, { merchantId: input.merchantId, currency: input.creditCurrency });
  let total = balance + (await grossOf(db, input, input.pricing));
  const pending = await db
    .select({ deposit: deposits })
    .from(deposits)
    .innerJoin(transactions, eq(transactions.id, deposits.transactionId))
    .where(
      and(
        eq(deposits.merchantId, input.merchantId),
        eq(deposits.status, "seen"),
        eq(transactions.currency, input.creditCurrency),
      ),
    );
  for (const { deposit } of pending) {
    if (!fitsCap(total)) break;
    total += await grossOf(
      db,
      {
        merchantId: input.merchantId,
        payCurrency: deposit.currency,
        creditCurrency: input.creditCurrency,
        amount: deposit.amount,
        rates: {
          lockedAmount: deposit.lockedAmount,
          lockedRate: storedRate(deposit.lockedRateNumerator, deposit.lockedRateDenominator),
          rate: storedRate(deposit.rateNumerator, deposit.rateDenominator),
        },
      },
      input.pricing,
    );
  }
  if (!fitsCap(total)) {
    throw fieldError({
      amount: `This payment would take the merchant's ${input.creditCurrency} balance past the largest amount Kassa keeps.`,
    });
  }
}
