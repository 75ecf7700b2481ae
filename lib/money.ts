/**
 * Money as a value type: every amount inside Kassa is a bigint count of 10^-8 units
 * ("minor units"), whatever the currency. A currency's own precision (2 for EUR, 6 for USDT,
 * 8 for BTC) only limits which amounts are accepted; it never changes the unit.
 */
export const SCALE = 8;
export const UNIT = 10n ** BigInt(SCALE);

export type Rounding = "down" | "up";

export class AmountFormatError extends Error {
  constructor(
    readonly reason: "format" | "exponent" | "negative" | "zero" | "precision" | "too_large",
    message: string,
  ) {
    super(message);
    this.name = "AmountFormatError";
  }
}

/** Largest amount we accept anywhere: 10^20 whole units, far above any real payment. */
export const MAX_AMOUNT = 10n ** 28n;

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

/**
 * Parses a decimal string ("12.5", "0.00000001") into minor units. Exponent forms, signs other
 * than a leading minus, and more fraction digits than `precision` are rejected, never rounded.
 */
export function parseDecimal(text: string, precision: number = SCALE): bigint {
  if (/[eE]/.test(text))
    throw new AmountFormatError("exponent", "must be a plain decimal, not exponent form");
  const match = DECIMAL.exec(text);
  if (!match) throw new AmountFormatError("format", "must be a decimal number");
  const [, sign, whole, fraction = ""] = match;
  const significant = fraction.replace(/0+$/, "");
  if (significant.length > precision) {
    throw new AmountFormatError("precision", `must have at most ${precision} decimal places`);
  }
  if (whole!.length > 21) throw new AmountFormatError("too_large", "is too large");
  const units = BigInt(whole!) * UNIT + BigInt(significant.padEnd(SCALE, "0") || "0");
  if (units > MAX_AMOUNT) throw new AmountFormatError("too_large", "is too large");
  return sign === "-" ? -units : units;
}

/**
 * Reads an amount Kassa stored itself (a NUMERIC column's text): exact, of any size, never refused
 * for the input cap, so that reading a stored value never throws (issue 15). Input goes through
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
 * Converts a JSON number as parsed by lib/json (a finite double whose shortest text is exact)
 * into the same decimal text the client sent.
 */
export function numberToDecimalText(value: number): string {
  if (!Number.isFinite(value)) throw new AmountFormatError("format", "must be a finite number");
  return String(value);
}

/** Parses a positive amount from a JSON number or decimal string, as the API accepts it. */
export function parsePositiveAmount(input: unknown, precision: number = SCALE): bigint {
  let text: string;
  if (typeof input === "number") text = numberToDecimalText(input);
  else if (typeof input === "string") text = input.trim();
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
