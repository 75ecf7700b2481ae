import "server-only";

import { sql } from "drizzle-orm";
import { currentOffering } from "@/lib/currencies/offering";
import { findCurrency } from "@/lib/currencies/registry";
import { type Executor, queryRows, queryRowsPrepared } from "@/lib/db/client";
import { merchantRates, rates } from "@/lib/db/schema";
import { fieldError } from "@/lib/errors";
import { formatAmountShort, parseDecimal, parseStoredAmount, UNIT } from "@/lib/money";
import { IDENTITY_RATE, type Rate, rateFromPrices } from "./rate";

/**
 * Whose prices a conversion reads. Prices are per merchant: a merchant's own sandbox edits
 * (`merchant_rates`) over the installation's table (`rates`), so one merchant's edit never moves
 * another's conversions. INSTALLATION_PRICES reads the installation's table alone, for the rare read
 * that concerns no merchant; it is said explicitly, never a default.
 */
export const INSTALLATION_PRICES = "installation";
export type PricesOf = number | typeof INSTALLATION_PRICES;

/**
 * Exchange rates behind one interface (DESIGN.md section 3). The embedded provider is a table of
 * USD prices that the sandbox can edit; a live feed would be another implementation of RatesProvider.
 */
export type RatesProvider = {
  usdPrice: (db: Executor, input: { currency: string; merchantId: PricesOf }) => Promise<bigint | undefined>;
};

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

/**
 * The embedded provider. A merchant's own prices are sandbox prices: in production mode (an
 * installation that once ran as a sandbox) they are ignored, and every merchant converts at the
 * installation's table.
 */
export const tableRatesProvider: RatesProvider = {
  usdPrice: async (db, { currency, merchantId }) => {
    const own =
      merchantId === INSTALLATION_PRICES || currentOffering()?.mode === "production"
        ? sql`null`
        : sql`(select usd_price from ${merchantRates} where merchant_id = ${merchantId} and currency = ${currency})`;
    const [row] = await queryRowsPrepared<{ price: string | null }>(
      db,
      sql`select coalesce(${own}, (select usd_price from ${rates} where currency = ${currency}))::text as price`,
    );
    return row?.price == null ? undefined : parseStoredAmount(row.price);
  },
};

export type UsdPrice = { currency: string; usdPrice: bigint; updatedAt: Date; isOwn: boolean };

/**
 * Every price a merchant converts at, by currency: their own where they set one (`isOwn`), the
 * installation's otherwise. INSTALLATION_PRICES lists the installation's table alone.
 */
export async function listUsdPrices(db: Executor, merchantId: PricesOf): Promise<UsdPrice[]> {
  const own = merchantId === INSTALLATION_PRICES ? -1 : merchantId;
  const rows = await queryRows<{
    currency: string;
    usd_price: string;
    updated_at: string | Date;
    is_own: boolean;
  }>(
    db,
    sql`select coalesce(m.currency, r.currency) as currency,
               coalesce(m.usd_price, r.usd_price)::text as usd_price,
               coalesce(m.updated_at, r.updated_at) as updated_at,
               m.currency is not null as is_own
          from ${rates} r
          full join (select * from ${merchantRates} where merchant_id = ${own}) m on m.currency = r.currency
         order by 1`,
  );
  return rows.map((row) => ({
    currency: row.currency,
    usdPrice: parseStoredAmount(row.usd_price),
    updatedAt: new Date(row.updated_at),
    isOwn: row.is_own,
  }));
}

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
 * Bounds on a USD price, so that no rate is zero or absurd: at least 0.00000001 USD (one
 * minor unit: a smaller price would round to zero) and at most 10^9 USD per unit, and the dearest
 * currency at most 10^14 times the cheapest. With those bounds every rate is an exact positive
 * ratio, and a conversion whose result would pass the amount cap is refused by its own check.
 */
export const MIN_USD_PRICE = 1n;
export const MAX_USD_PRICE = 10n ** 9n * UNIT;
export const MAX_PRICE_RATIO = 10n ** 14n;

/**
 * Sets a currency's USD price: a merchant's own (the sandbox rate editor), or the installation's
 * (INSTALLATION_PRICES: what every merchant without their own converts at). Refused with a field
 * error on `usd_price` when the price is out of bounds, or would put it more than MAX_PRICE_RATIO
 * away from another price the same conversions read.
 */
export async function setUsdPrice(
  db: Executor,
  input: { merchantId: PricesOf; currency: string; price: bigint },
): Promise<void> {
  const { merchantId, currency, price } = input;
  if (price < MIN_USD_PRICE || price > MAX_USD_PRICE) {
    throw fieldError({ usd_price: "The price must be between 0.00000001 and 1000000000 USD." });
  }
  for (const other of await listUsdPrices(db, merchantId)) {
    if (other.currency === currency) continue;
    const [low, high] = other.usdPrice < price ? [other.usdPrice, price] : [price, other.usdPrice];
    if (high > low * MAX_PRICE_RATIO) {
      throw fieldError({
        usd_price: `The price is too far from ${other.currency}'s (${formatAmountShort(other.usdPrice)} USD): conversions between them would be meaningless. Keep any two prices within a factor of 10^14.`,
      });
    }
  }
  if (merchantId === INSTALLATION_PRICES) {
    await db
      .insert(rates)
      .values({ currency, usdPrice: price })
      .onConflictDoUpdate({ target: rates.currency, set: { usdPrice: price, updatedAt: sql`now()` } });
    return;
  }
  await db
    .insert(merchantRates)
    .values({ merchantId, currency, usdPrice: price })
    .onConflictDoUpdate({
      target: [merchantRates.merchantId, merchantRates.currency],
      set: { usdPrice: price, updatedAt: sql`now()` },
    });
}

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
 * The rate for converting `from` into `to` now, for `merchantId` (their prices), as an exact ratio of
 * the two prices less the spread. Nothing is rounded here: `convert` rounds each amount once
 * (DESIGN.md section 3).
 */
export async function quote(
  db: Executor,
  input: { merchantId: PricesOf; from: string; to: string; spreadPpm: number; provider?: RatesProvider },
): Promise<Quote> {
  const { merchantId, from, to, spreadPpm, provider = tableRatesProvider } = input;
  if (from === to) return { from, to, midRate: IDENTITY_RATE, rate: IDENTITY_RATE, spreadPpm: 0 };
  // One after the other: `db` may be a transaction, which runs one statement at a time.
  const fromPrice = await provider.usdPrice(db, { currency: from, merchantId });
  const toPrice = await provider.usdPrice(db, { currency: to, merchantId });
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
 * A provider that answers from the prices `provider` gave once for `currencies`, as `merchantId`
 * sees them: many rates among the same currencies (/currencies/pairs) read each price once, and all
 * from one moment. It answers for that merchant only: asked for another's, it has no price.
 */
export async function memoizedRatesProvider(
  db: Executor,
  input: { merchantId: PricesOf; currencies: readonly string[]; provider?: RatesProvider },
): Promise<RatesProvider> {
  const { merchantId, provider = tableRatesProvider } = input;
  const prices = new Map<string, bigint | undefined>();
  // One after the other: `db` may be a transaction, which runs one statement at a time.
  for (const currency of input.currencies)
    prices.set(currency, await provider.usdPrice(db, { currency, merchantId }));
  return {
    usdPrice: async (_db, asked) =>
      asked.merchantId === merchantId ? prices.get(asked.currency) : undefined,
  };
}
