import { eq, sql } from "drizzle-orm";
import { findCurrency } from "@/lib/currencies/registry";
import type { Executor } from "@/lib/db/client";
import { rates } from "@/lib/db/schema";
import { divide, parseDecimal, UNIT } from "@/lib/money";

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

export async function setUsdPrice(db: Executor, currency: string, price: bigint): Promise<void> {
  if (price <= 0n) throw new RangeError("a price must be positive");
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
  /** Units of `to` per one unit of `from`, before the spread. */
  midRate: bigint;
  /** Units of `to` per one unit of `from` that the conversion uses: the spread taken, rounded down once. */
  rate: bigint;
  spreadPpm: number;
};

export class RateUnavailableError extends Error {}

/**
 * The rate for converting `from` into `to`. Rounded down: whoever receives `to` gets at most one
 * minor unit less than the exact figure, never more (DESIGN.md section 3).
 */
export async function quote(
  db: Executor,
  input: { from: string; to: string; spreadPpm?: number; provider?: RatesProvider },
): Promise<Quote> {
  const { from, to, provider = tableRatesProvider } = input;
  if (from === to) return { from, to, midRate: UNIT, rate: UNIT, spreadPpm: 0 };
  const spreadPpm = input.spreadPpm ?? DEFAULT_SPREAD_PPM;
  // One after the other: `db` may be a transaction, which runs one statement at a time.
  const fromPrice = await provider.usdPrice(db, from);
  const toPrice = await provider.usdPrice(db, to);
  if (!fromPrice || !toPrice || !findCurrency(from) || !findCurrency(to)) {
    throw new RateUnavailableError(`no rate for ${from} to ${to}`);
  }
  const midRate = divide(fromPrice * UNIT, toPrice, "down");
  const rate = divide(midRate * BigInt(1_000_000 - spreadPpm), 1_000_000n, "down");
  return { from, to, midRate, rate, spreadPpm };
}
