import "server-only";

import { isOffered } from "@/lib/currencies/offering";
import { CURRENCIES, type Currency } from "@/lib/currencies/registry";
import type { Executor } from "@/lib/db/client";
import { formatAmount } from "@/lib/money";
import type { Pricing } from "@/lib/rates/pricing";
import { formatRate, type Rate } from "@/lib/rates/rate";
import { memoizedRatesProvider, type PricesOf, quote, RateUnavailableError } from "@/lib/rates/rates";

/** One exchangeable pair as /currencies/pairs and /currencies/rates show it (api-reference.md). */
export type CurrencyPair = {
  currency_from: {
    currency: string;
    type: Currency["kind"];
    min_amount: string;
    min_amount_deposit_with_exchange?: string;
  };
  currency_to: { currency: string; type: Currency["kind"] };
  rate_from: "1";
  rate_to: string;
};

/**
 * Every pair of offered currencies with a rate now for the merchant, optionally filtered by either side,
 * in registry order. `rate_to`: what one `currency_from` buys, spread included (the exchange's own Rate),
 * 8 digits rounded down. `min_amount`: the smallest exchange from that currency, its `minimum_amount` in
 * /currencies/list (also the deposit minimum and `min_amount_deposit_with_exchange`).
 */
export async function listPairs(
  db: Executor,
  input: { merchantId: PricesOf; from?: string; to?: string; pricing: Pricing },
): Promise<CurrencyPair[]> {
  const offered = CURRENCIES.filter((c) => isOffered(c.code));
  // Every price read once: the provider answers each pair's two look-ups from memory.
  const provider = await memoizedRatesProvider(db, {
    merchantId: input.merchantId,
    currencies: offered.map((c) => c.code),
  });
  const pairs: CurrencyPair[] = [];
  for (const from of offered) {
    if (input.from !== undefined && from.code !== input.from) continue;
    for (const to of offered) {
      if (to.code === from.code || (input.to !== undefined && to.code !== input.to)) continue;
      const rate = await rateOrNone(db, {
        merchantId: input.merchantId,
        from: from.code,
        to: to.code,
        spreadPpm: input.pricing.spreadPpm,
        provider,
      });
      if (!rate) continue;
      pairs.push({
        currency_from: {
          currency: from.code,
          type: from.kind,
          min_amount: formatAmount(from.minimumAmount),
          ...(from.kind === "crypto" && {
            min_amount_deposit_with_exchange: formatAmount(from.minimumAmount),
          }),
        },
        currency_to: { currency: to.code, type: to.kind },
        rate_from: "1",
        rate_to: formatRate(rate),
      });
    }
  }
  return pairs;
}

/** The pair's rate, or undefined when the provider has no price for one side (the pair is not listed). */
async function rateOrNone(db: Executor, input: Parameters<typeof quote>[1]): Promise<Rate | undefined> {
  try {
    return (await quote(db, input)).rate;
  } catch (error) {
    if (error instanceof RateUnavailableError) return undefined;
    throw error;
  }
}
