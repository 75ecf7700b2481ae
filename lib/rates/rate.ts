import "server-only";

import { divide, formatAmount, type Rounding, SCALE, UNIT } from "@/lib/money";

/**
 * An exchange rate as an exact ratio (DESIGN.md section 3): target minor units per source minor
 * unit, always reduced and positive. Never an 8-digit amount: truncating DOGE→BTC to 8 digits lost
 * 0.7% of every conversion. Amounts are converted by `convert`, which rounds once.
 */
export type Rate = { numerator: bigint; denominator: bigint };

const PPM = 1_000_000n;

function gcd(a: bigint, b: bigint): bigint {
  let x = a < 0n ? -a : a;
  let y = b < 0n ? -b : b;
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
}

/** The reduced ratio numerator/denominator; both must be positive. */
export function makeRate(numerator: bigint, denominator: bigint): Rate {
  if (numerator <= 0n || denominator <= 0n) throw new RangeError("a rate must be positive");
  const divisor = gcd(numerator, denominator);
  return { numerator: numerator / divisor, denominator: denominator / divisor };
}

export const IDENTITY_RATE: Rate = { numerator: 1n, denominator: 1n };

/**
 * The rate for converting a currency priced `fromPrice` into one priced `toPrice` (both USD prices
 * in minor units), less a spread of `spreadPpm` parts per million that Kassa keeps.
 */
export function rateFromPrices(input: { fromPrice: bigint; toPrice: bigint; spreadPpm: number }): Rate {
  if (!Number.isInteger(input.spreadPpm) || input.spreadPpm < 0 || input.spreadPpm >= 1_000_000)
    throw new RangeError("a spread must be between 0 and 1,000,000 ppm");
  return makeRate(input.fromPrice * (PPM - BigInt(input.spreadPpm)), input.toPrice * PPM);
}

/** The rate of the opposite direction (source units per target unit). */
export function invert(rate: Rate): Rate {
  return { numerator: rate.denominator, denominator: rate.numerator };
}

/**
 * `amount` (source minor units) in target minor units, rounded once in the direction given, to the
 * target currency's `precision` (8 = every minor unit): the result is within one smallest unit of
 * that precision of the exact product. Callers pick the direction that is the merchant's disfavour:
 * what the merchant receives or sends out "down", what the merchant is owed or debited "up".
 */
export function convert(amount: bigint, rate: Rate, rounding: Rounding, precision: number = SCALE): bigint {
  const step = 10n ** BigInt(SCALE - precision);
  return divide(amount * rate.numerator, rate.denominator * step, rounding) * step;
}

/**
 * Several amounts, each at its own rate, converted and summed with ONE rounding (a payment that is
 * partly covered by a locked rate and partly converted at the rate of the moment).
 */
export function convertParts(
  parts: { amount: bigint; rate: Rate }[],
  rounding: Rounding,
  precision: number = SCALE,
): bigint {
  const { numerator, denominator } = exactValue(parts);
  const step = 10n ** BigInt(SCALE - precision);
  return divide(numerator, denominator * step, rounding) * step;
}

/**
 * One rate for several amounts each at its own rate: their summed value per unit of their summed
 * amount, exact (convert(total, blended) is convertParts(parts) up to its one rounding). Null when
 * the amounts are all zero.
 */
export function blendRates(parts: { amount: bigint; rate: Rate }[]): Rate | null {
  const { numerator, denominator, total } = exactValue(parts);
  return total === 0n ? null : makeRate(numerator, denominator * total);
}

/** The parts' summed value as one exact fraction, unrounded, and their summed amount. */
function exactValue(parts: { amount: bigint; rate: Rate }[]) {
  let numerator = 0n;
  let denominator = 1n;
  let total = 0n;
  for (const part of parts) {
    if (part.amount === 0n) continue;
    numerator = numerator * part.rate.denominator + part.amount * part.rate.numerator * denominator;
    denominator *= part.rate.denominator;
    total += part.amount;
  }
  return { numerator, denominator, total };
}

/** A rate for display only (8 fraction digits, rounded down): never read back into a conversion. */
export function formatRate(rate: Rate): string {
  return formatAmount(divide(rate.numerator * UNIT, rate.denominator, "down"));
}

/** A rate stored as two NUMERIC(78,0) columns, or null when either is absent. */
export function storedRate(numerator: bigint | null, denominator: bigint | null): Rate | null {
  if (numerator === null || denominator === null) return null;
  return makeRate(numerator, denominator);
}

/** A stored rate (two columns) for display, or null when there is none. */
export function formatStoredRate(numerator: bigint | null, denominator: bigint | null): string | null {
  const rate = storedRate(numerator, denominator);
  return rate === null ? null : formatRate(rate);
}
