import "server-only";

import { findCurrency } from "@/lib/currencies/registry";
import type { Executor } from "@/lib/db/client";
import { formatAmount, SCALE } from "@/lib/money";
import { convert } from "./rate";
import { memoizedRatesProvider, quote, RateUnavailableError } from "./rates";

/**
 * The currency the dashboard values a merchant's money in. USD for every merchant, as the overview
 * chart: the rates table prices every currency in USD, so each value is one exact ratio.
 */
export const DISPLAY_CURRENCY = "USD";

export type ValueNow = { amount: string; currency: string };

/**
 * What each of `amounts` is worth now in the display currency, at the merchant's mid rate (no spread:
 * a picture of value, not a conversion anyone gets), rounded down to the currency's minor unit.
 * Null for a currency without a price now.
 */
export async function valueNow(
  db: Executor,
  input: { merchantId: number; amounts: readonly { amount: bigint; currency: string }[] },
): Promise<(ValueNow | null)[]> {
  const to = DISPLAY_CURRENCY;
  const precision = findCurrency(to)?.minorUnit ?? SCALE;
  const currencies = [...new Set(input.amounts.map((a) => a.currency)), to];
  const provider = await memoizedRatesProvider(db, { merchantId: input.merchantId, currencies });
  const values: (ValueNow | null)[] = [];
  for (const { amount, currency } of input.amounts) {
    try {
      const { midRate } = await quote(db, {
        merchantId: input.merchantId,
        from: currency,
        to,
        spreadPpm: 0,
        provider,
      });
      values.push({ amount: formatAmount(convert(amount, midRate, "down", precision)), currency: to });
    } catch (error) {
      if (!(error instanceof RateUnavailableError)) throw error;
      values.push(null);
    }
  }
  return values;
}
