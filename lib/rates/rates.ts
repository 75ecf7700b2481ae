import "server-only";

import { eq, sql } from "drizzle-orm";
import { findCurrency } from "@/lib/currencies/registry";
import type { Executor } from "@/lib/db/client";
import { rates } from "@/lib/db/schema";
import { fieldError } from "@/lib/errors";
import { formatAmountShort, parseDecimal, UNIT } from "@/lib/money";
import { IDENTITY_RATE, type Rate, rateFromPrices } from "./rate";

/**
 * Exchange rates behind one interface (DESIGN.md section 3). The embedded provider is a table of
 * USD prices that the sandbox can edit; a live feed would be another implementation of RatesProvider.
 */
export type RatesProvider = { usdPrice: (db: Executor, currency: string) => Promise<bigint | undefined> };

/** Sandbox starting prices (USD per unit). */
export const DEFAULT_USD_PRICES: Record<string, string> = {
  BTC: "65000",
  LTC: "80",
  BCH: "350",
  DOGE: "0.15",
  ETH: "3200",
  USDTE: "1",
  USDTT: "1",
  USDC: "1",
  TRX: "0.12",
  XRP: "0.55",
  EUR: "1.08",
  USD: "1",
};

export const tableRatesProvider: RatesProvider = {
  usdPrice: async (db, currency) => {
    const [row] = await db.select({ price: rates.usdPrice }).from(rates).where(eq(rates.currency, currency));
    return row?.price;
  },
};

/** Writes the starting prices for currencies that have none (never overwrites an edited price). */
export async function seedRates(db: Executor): Promise<void> {
  await db
    .insert(rates)
    .values(
      Object.entries(DEFAULT_USD_PRICES).map(([currency, price]) => ({
        currency,
        usdPrice: parseDecimal(price),
      })),
    )
    .onConflictDoNothing();
}

/**
 * Bounds on a USD price, so that no rate is zero or absurd (issue 15): at least 0.00000001 USD (one
 * minor unit: a smaller price would round to zero) and at most 10^9 USD per unit, and the dearest
 * currency at most 10^14 times the cheapest. With those bounds every rate is an exact positive
 * ratio, and a conversion whose result would pass the amount cap is refused by its own check.
 */
export const MIN_USD_PRICE = 1n;
export const MAX_USD_PRICE = 10n ** 9n * UNIT;
export const MAX_PRICE_RATIO = 10n ** 14n;

/**
 * Sets a currency's USD price (the sandbox's rate editor). Refused with a field error on `usd_price`
 * when the price is out of bounds, or would put it more than MAX_PRICE_RATIO away from another price.
 */
export async function setUsdPrice(db: Executor, currency: string, price: bigint): Promise<void> {
  if (price < MIN_USD_PRICE || price > MAX_USD_PRICE) {
    throw fieldError({ usd_price: "The price must be between 0.00000001 and 1000000000 USD." });
  }
  const others = await db.select({ currency: rates.currency, price: rates.usdPrice }).from(rates);
  for (const other of others) {
    if (other.currency === currency) continue;
    const [low, high] = other.price < price ? [other.price, price] : [price, other.price];
    if (high > low * MAX_PRICE_RATIO) {
      throw fieldError({
        usd_price: `The price is too far from ${other.currency}'s (${formatAmountShort(other.price)} USD): conversions between them would be meaningless. Keep any two prices within a factor of 10^14.`,
      });
    }
  }
  await db
    .insert(rates)
    .values({ currency, usdPrice: price })
    .onConflictDoUpdate({ target: rates.currency, set: { usdPrice: price, updatedAt: sql`now()` } });
}

/** The spread Kassa keeps on every conversion, in parts per million (0.5% unless configured). */
export const DEFAULT_SPREAD_PPM = 5_000;

export type Quote = {
  from: string;
  to: string;
  /** Units of `to` per unit of `from`, before the spread (exact). */
  midRate: Rate;
  /** Units of `to` per unit of `from` that the conversion uses: the spread taken (exact). */
  rate: Rate;
  spreadPpm: number;
};

export class RateUnavailableError extends Error {}

/**
 * The rate for converting `from` into `to` now, as an exact ratio of the two prices less the
 * spread. Nothing is rounded here: `convert` rounds each amount once (DESIGN.md section 3).
 */
export async function quote(
  db: Executor,
  input: { from: string; to: string; spreadPpm?: number; provider?: RatesProvider },
): Promise<Quote> {
  const { from, to, provider = tableRatesProvider } = input;
  if (from === to) return { from, to, midRate: IDENTITY_RATE, rate: IDENTITY_RATE, spreadPpm: 0 };
  const spreadPpm = input.spreadPpm ?? DEFAULT_SPREAD_PPM;
  // One after the other: `db` may be a transaction, which runs one statement at a time.
  const fromPrice = await provider.usdPrice(db, from);
  const toPrice = await provider.usdPrice(db, to);
  if (
    !fromPrice ||
    !toPrice ||
    fromPrice <= 0n ||
    toPrice <= 0n ||
    !findCurrency(from) ||
    !findCurrency(to)
  ) {
    throw new RateUnavailableError(`no rate for ${from} to ${to}`);
  }
  return {
    from,
    to,
    midRate: rateFromPrices({ fromPrice, toPrice, spreadPpm: 0 }),
    rate: rateFromPrices({ fromPrice, toPrice, spreadPpm }),
    spreadPpm,
  };
}

/**
 * A provider that answers from the prices `provider` gave once for `currencies`: many rates among
 * the same currencies (/currencies/pairs) read each price once, and all from one moment.
 */
export async function memoizedRatesProvider(
  db: Executor,
  currencies: readonly string[],
  provider: RatesProvider = tableRatesProvider,
): Promise<RatesProvider> {
  const prices = new Map<string, bigint | undefined>();
  // One after the other: `db` may be a transaction, which runs one statement at a time.
  for (const currency of currencies) prices.set(currency, await provider.usdPrice(db, currency));
  return { usdPrice: async (_db, currency) => prices.get(currency) };
}
