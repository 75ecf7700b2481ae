/**
 * Money for people, the one rule every page uses: fiat to its minor unit, crypto to the digits it
 * really has, rates to significant digits, on bigint units, never floats; `exact` holds a rounded
 * figure's full amount. docs/decisions/money-display.md.
 */
import { findCurrency } from "@/lib/currencies/registry";
import { withoutTrailingZeros } from "@/lib/digits";
import { parseStoredAmount, SCALE, UNIT } from "@/lib/money";

export type Separators = { group: string; decimal: string };

/**
 * The default: a narrow no-break space between groups and a point before the fraction (ISO 80000).
 * A space cannot be taken for the decimal mark, so the amount reads the same to a reader of either
 * convention ("1,297" is a thousand in London and one in Berlin).
 */
export const NEUTRAL_SEPARATORS: Separators = { group: "\u202f", decimal: "." };

/** A locale's group and decimal marks, read from Intl on a fixed sample (no amount goes through Intl). */
export function separatorsFor(locale: string | null | undefined): Separators {
  if (!locale) return NEUTRAL_SEPARATORS;
  const parts = new Intl.NumberFormat(locale, { useGrouping: true }).formatToParts(12345.5);
  return {
    group: parts.find((p) => p.type === "group")?.value ?? NEUTRAL_SEPARATORS.group,
    decimal: parts.find((p) => p.type === "decimal")?.value ?? NEUTRAL_SEPARATORS.decimal,
  };
}

export type DisplayedMoney = {
  /** What the page shows: "1 297.87 EUR". */
  text: string;
  /** Every digit the amount has: "1 297.86828788 EUR"; equal to `text` when nothing was rounded. */
  exact: string;
  /** Whether `text` is rounded (to the nearest, halves away from zero). */
  isRounded: boolean;
};

/** `units` rounded to `fractionDigits` (0..8) decimals, to the nearest, halves away from zero. */
export function roundUnits(units: bigint, fractionDigits: number): bigint {
  const step = 10n ** BigInt(SCALE - fractionDigits);
  const abs = units < 0n ? -units : units;
  const rounded = ((abs + step / 2n) / step) * step;
  return units < 0n ? -rounded : rounded;
}

/**
 * The decimal digits of `units`, with at least `minFraction` fraction digits and otherwise none
 * that are trailing zeros, grouped and marked with `separators`.
 */
export function decimalText(
  units: bigint,
  minFraction: number,
  separators: Separators = NEUTRAL_SEPARATORS,
): string {
  const abs = units < 0n ? -units : units;
  const whole = (abs / UNIT).toString();
  const fraction = withoutTrailingZeros((abs % UNIT).toString().padStart(SCALE, "0")).padEnd(
    minFraction,
    "0",
  );
  let grouped = "";
  for (let end = whole.length; end > 0; end -= 3) {
    const group = whole.slice(Math.max(0, end - 3), end);
    grouped = grouped ? `${group}${separators.group}${grouped}` : group;
  }
  return `${units < 0n ? "-" : ""}${grouped}${fraction ? `${separators.decimal}${fraction}` : ""}`;
}

function toUnits(amount: string | bigint): bigint {
  return typeof amount === "bigint" ? amount : parseStoredAmount(amount);
}

/**
 * An amount in a currency: fiat with exactly its minor unit's digits (2 for EUR), rounded to the
 * nearest; crypto with trailing zeros trimmed, rounded to the nearest only past the currency's
 * precision (an amount Kassa derived, such as a conversion). `exact` always has every digit.
 */
export function formatMoney(
  amount: string | bigint,
  code: string,
  options: { locale?: string | null } = {},
): DisplayedMoney {
  const units = toUnits(amount);
  const separators = separatorsFor(options.locale);
  const currency = findCurrency(code);
  const minFraction = currency?.kind === "fiat" ? (currency.minorUnit ?? 2) : 0;
  const maxFraction = currency?.kind === "fiat" ? minFraction : (currency?.precision ?? SCALE);
  const shown = roundUnits(units, maxFraction);
  return {
    text: `${decimalText(shown, minFraction, separators)} ${code}`,
    exact: `${decimalText(units, minFraction, separators)} ${code}`,
    isRounded: shown !== units,
  };
}

/** The words a title attribute gives a rounded figure: its exact value and which way it was rounded. */
export function exactNote(money: DisplayedMoney): string | undefined {
  return money.isRounded ? `Exactly ${money.exact} (shown rounded to the nearest)` : undefined;
}

export const RATE_SIGNIFICANT_DIGITS = 6;

/**
 * A rate (target units per source unit, in 10^-8 units as formatRate's text carries it) to
 * `significant` digits, rounded to the nearest: "59 884.3" for 59884.25925925. The whole part is
 * never cut short of its digits' places ("1 234 570" for 1234567.89 at 6).
 */
export function formatRateValue(
  rate: string | bigint,
  options: { locale?: string | null; significant?: number } = {},
): DisplayedMoney {
  const units = toUnits(rate);
  const significant = options.significant ?? RATE_SIGNIFICANT_DIGITS;
  const separators = separatorsFor(options.locale);
  const abs = units < 0n ? -units : units;
  const drop = abs.toString().length - significant;
  let shown = units;
  if (drop > 0) {
    const step = 10n ** BigInt(drop);
    const rounded = ((abs + step / 2n) / step) * step;
    shown = units < 0n ? -rounded : rounded;
  }
  return {
    text: decimalText(shown, 0, separators),
    exact: decimalText(units, 0, separators),
    isRounded: shown !== units,
  };
}

/** "1 BTC = 59 884.3 EUR": one unit of `from` in `to`, the rate to significant digits. */
export function formatRateText(
  rate: string | bigint,
  from: string,
  to: string,
  options: { locale?: string | null } = {},
): DisplayedMoney {
  const value = formatRateValue(rate, options);
  return {
    text: `1 ${from} = ${value.text} ${to}`,
    exact: `1 ${from} = ${value.exact} ${to}`,
    isRounded: value.isRounded,
  };
}
