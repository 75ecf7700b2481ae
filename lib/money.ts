/**
 * Money as a value type: every amount inside Kassa is a bigint count of 10^-8 units
 * ("minor units"), whatever the currency. A currency's own precision (2 for EUR, 6 for USDT,
 * 8 for BTC) only limits which amounts are accepted; it never changes the unit.
 */
import { withoutTrailingZeros } from "./digits";
import { JsonExactNumber } from "./json";

export const SCALE = 8;
export const UNIT = 10n ** BigInt(SCALE);

export type Rounding = "down" | "up";

export class AmountFormatError extends Error {
  constructor(
    readonly reason: "format" | "negative" | "zero" | "precision" | "too_large",
    message: string,
  ) {
    super(message);
    this.name = "AmountFormatError";
  }
}

/** Largest amount we accept anywhere: 10^20 whole units, far above any real payment. */
export const MAX_AMOUNT = 10n ** 28n;

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;
const EXPONENT_FORM = /^(-?)(\d+)(?:\.(\d+))?[eE]([+-]?\d+)$/;
/** More whole digits than this is above MAX_AMOUNT whatever they are. */
const MAX_WHOLE_DIGITS = 21;

/**
 * Parses a decimal string ("12.5", "0.00000001", or an exponent form: "1e-05" is 0.00001) into
 * minor units, by its exact value: more fraction digits than `precision` (after trailing zeros)
 * are rejected, never rounded; so are signs other than a leading minus.
 */
export function parseDecimal(text: string, precision: number = SCALE): bigint {
  const match = DECIMAL.exec(text);
  if (!match) return parseExponentForm(text, precision);
  const [, sign, whole, fraction = ""] = match;
  const significant = withoutTrailingZeros(fraction);
  if (significant.length > precision) {
    throw new AmountFormatError("precision", `must have at most ${precision} decimal places`);
  }
  if (whole!.length > MAX_WHOLE_DIGITS) throw new AmountFormatError("too_large", "is too large");
  const units = BigInt(whole!) * UNIT + BigInt(significant.padEnd(SCALE, "0") || "0");
  if (units > MAX_AMOUNT) throw new AmountFormatError("too_large", "is too large");
  return sign === "-" ? -units : units;
}

/** "1.5e-3": the significant digits times a power of ten, checked before any big number is built. */
function parseExponentForm(text: string, precision: number): bigint {
  const match = EXPONENT_FORM.exec(text);
  if (!match) throw new AmountFormatError("format", "must be a decimal number");
  const [, sign, whole, fraction = "", exponentText] = match;
  const all = `${whole}${fraction}`.replace(/^0+/, "");
  const digits = withoutTrailingZeros(all);
  if (digits === "") return 0n;
  // value = digits × 10^exponent, digits without trailing zeros; a huge exponent text is simply huge.
  const exponent = Number(exponentText) - fraction.length + (all.length - digits.length);
  if (-exponent > precision) {
    throw new AmountFormatError("precision", `must have at most ${precision} decimal places`);
  }
  if (digits.length + exponent > MAX_WHOLE_DIGITS) throw new AmountFormatError("too_large", "is too large");
  const units = BigInt(digits) * 10n ** BigInt(exponent + SCALE);
  if (units > MAX_AMOUNT) throw new AmountFormatError("too_large", "is too large");
  return sign === "-" ? -units : units;
}

/**
 * Reads an amount Kassa stored itself (a NUMERIC column's text): exact, of any size, never refused
 * for the input cap, so that reading a stored value never throws. Input goes through
 * parseDecimal; this is for the database's own output only.
 */
export function parseStoredAmount(text: string): bigint {
  const match = DECIMAL.exec(text);
  if (!match) throw new AmountFormatError("format", `not a stored amount: ${text}`);
  const [, sign, whole, fraction = ""] = match;
  const units = BigInt(whole!) * UNIT + BigInt(fraction.slice(0, SCALE).padEnd(SCALE, "0") || "0");
  return sign === "-" ? -units : units;
}

/** Whether an amount Kassa derived (a conversion, a sum, a balance) fits under the cap to be written. */
export function fitsCap(units: bigint): boolean {
  return units <= MAX_AMOUNT && units >= -MAX_AMOUNT;
}

/**
 * The plain decimal text of a JSON number as lib/json reads it (a double whose shortest text has
 * the value the client sent): 1e-7 is "0.0000001", 1.5e+21 is "1500000000000000000000".
 */
export function numberToDecimalText(value: number): string {
  if (!Number.isFinite(value)) throw new AmountFormatError("format", "must be a finite number");
  const text = String(value);
  const match = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!match) return text;
  const [, sign, first, rest = "", exponentText] = match;
  const digits = `${first}${rest}`;
  const point = 1 + Number(exponentText); // where the decimal point goes within `digits`
  if (point <= 0) return `${sign}0.${"0".repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${"0".repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/**
 * Parses a positive amount as the API accepts it: a JSON number, a number too exact for a double
 * (lib/json's JsonExactNumber, read by its digits), or a decimal string.
 */
export function parsePositiveAmount(input: unknown, precision: number = SCALE): bigint {
  let text: string;
  if (typeof input === "number") text = numberToDecimalText(input);
  else if (typeof input === "string") text = input.trim();
  else if (input instanceof JsonExactNumber) text = input.literal;
  else throw new AmountFormatError("format", "must be a number or a decimal string");
  const units = parseDecimal(text, precision);
  if (units < 0n) throw new AmountFormatError("negative", "must be greater than zero");
  if (units === 0n) throw new AmountFormatError("zero", "must be greater than zero");
  return units;
}

/** Formats minor units as the wire form: exactly 8 fraction digits ("12.50000000"). */
export function formatAmount(units: bigint): string {
  const negative = units < 0n;
  const abs = negative ? -units : units;
  const whole = abs / UNIT;
  const fraction = (abs % UNIT).toString().padStart(SCALE, "0");
  return `${negative ? "-" : ""}${whole}.${fraction}`;
}

/** Formats with trailing zeros removed ("12.5", "0"), for human-facing text and percentages. */
export function formatAmountShort(units: bigint): string {
  const full = formatAmount(units);
  return full.replace(/\.?0+$/, "");
}

/** Integer division with an explicit rounding direction (never silent truncation of negatives). */
export function divide(numerator: bigint, denominator: bigint, rounding: Rounding): bigint {
  if (denominator === 0n) throw new RangeError("division by zero");
  if (denominator < 0n) return divide(-numerator, -denominator, rounding);
  const quotient = numerator / denominator;
  const remainder = numerator % denominator;
  if (remainder === 0n) return quotient;
  // BigInt division truncates toward zero; adjust to the requested direction.
  if (rounding === "down") return numerator < 0n ? quotient - 1n : quotient;
  return numerator > 0n ? quotient + 1n : quotient;
}

/** Multiplies two minor-unit amounts (for example an amount by a rate) and rounds once. */
export function multiply(a: bigint, b: bigint, rounding: Rounding): bigint {
  return divide(a * b, UNIT, rounding);
}

/** Applies a percentage held as parts per million (1% = 10_000 ppm), rounded once. */
export function percentOf(amount: bigint, ppm: number, rounding: Rounding): bigint {
  return divide(amount * BigInt(ppm), 1_000_000n, rounding);
}

/** Rounds minor units to a currency's precision (for example cents for EUR). */
export function roundToPrecision(units: bigint, precision: number, rounding: Rounding): bigint {
  const step = 10n ** BigInt(SCALE - precision);
  return divide(units, step, rounding) * step;
}

/** Formats a ppm figure as a percentage string without trailing zeros: 9_900 → "0.99". */
export function formatPercent(ppm: number): string {
  const whole = Math.trunc(ppm / 10_000);
  const fraction = String(ppm % 10_000)
    .padStart(4, "0")
    .replace(/0+$/, "");
  return fraction ? `${whole}.${fraction}` : String(whole);
}
