import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { dashboardAmount } from "@/components/dashboard/dashboard-amount";
import { groupDigits } from "@/lib/digits";
import { JsonExactNumber } from "@/lib/json";
import {
  type AmountFormatError,
  divide,
  fitsCap,
  formatAmount,
  formatPercent,
  MAX_AMOUNT,
  multiply,
  numberToDecimalText,
  parseDecimal,
  parsePositiveAmount,
  parseStoredAmount,
  percentOf,
  roundToPrecision,
  UNIT,
} from "@/lib/money";

const units = fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n });

describe("money", () => {
  it("formats minor units with exactly 8 fraction digits", () => {
    expect(formatAmount(1_250_000_000n)).toBe("12.50000000");
    expect(formatAmount(1n)).toBe("0.00000001");
    expect(formatAmount(0n)).toBe("0.00000000");
    expect(formatAmount(-5n)).toBe("-0.00000005");
  });

  it("round-trips every amount through its wire form", () => {
    fc.assert(fc.property(units, (value) => parseDecimal(formatAmount(value)) === value));
  });

  it("parses JSON numbers and strings to the same units, exactly", () => {
    expect(parsePositiveAmount(12.5)).toBe(1_250_000_000n);
    expect(parsePositiveAmount("12.5")).toBe(1_250_000_000n);
    expect(parsePositiveAmount("0.00000001")).toBe(1n);
    // 0.1 + 0.2 style float error must never appear: the decimal text is what counts.
    expect(parsePositiveAmount(0.3)).toBe(30_000_000n);
    expect(parsePositiveAmount("12345678901234.12345678")).toBe(1_234_567_890_123_412_345_678n);
  });

  it("reads exponent forms by their exact value (DESIGN.md section 3)", () => {
    // Expected units written out by hand: 1 unit is 0.00000001.
    const cases: [unknown, number | undefined, bigint][] = [
      ["1e-05", undefined, 1_000n],
      [1e-5, undefined, 1_000n],
      ["1E-5", 5, 1_000n],
      ["1e-7", undefined, 10n],
      [1e-7, undefined, 10n],
      ["1e-8", undefined, 1n],
      ["12.5e1", undefined, 12_500_000_000n],
      ["1.5e+3", 2, 150_000_000_000n],
      ["5.0", 0, 500_000_000n],
      ["0.0000100e0", 5, 1_000n],
      ["123456789e-8", undefined, 123_456_789n],
      [new JsonExactNumber("12345678.12345678"), undefined, 1_234_567_812_345_678n],
      [new JsonExactNumber("1.00000000000000000000"), 0, 100_000_000n],
      [2.5e19, undefined, 2_500_000_000_000_000_000_000_000_000n],
    ];
    for (const [input, precision, expected] of cases) {
      expect(parsePositiveAmount(input, precision), String(input)).toBe(expected);
    }
  });

  it("writes a JSON number as the plain decimal it is", () => {
    expect(numberToDecimalText(1e-7)).toBe("0.0000001");
    expect(numberToDecimalText(1.5e-7)).toBe("0.00000015");
    expect(numberToDecimalText(1.5e21)).toBe("1500000000000000000000");
    expect(numberToDecimalText(1.2345e21)).toBe("1234500000000000000000");
    expect(numberToDecimalText(12.5)).toBe("12.5");
    expect(numberToDecimalText(-3e-7)).toBe("-0.0000003");
  });

  it("rejects signs, zero, NaN, excess precision and huge values, whatever the spelling", () => {
    const reason = (input: unknown, precision?: number) => {
      try {
        parsePositiveAmount(input, precision);
        return "accepted";
      } catch (error) {
        return (error as AmountFormatError).reason;
      }
    };
    // Too many decimals for the currency, in every spelling, never rounded to fit.
    expect(reason("1e-9")).toBe("precision");
    expect(reason(1e-9)).toBe("precision");
    expect(reason("1e-3", 2)).toBe("precision");
    expect(reason(5e-324)).toBe("precision");
    expect(reason("1e-99999999999")).toBe("precision");
    expect(reason(new JsonExactNumber("12345678.123456789"))).toBe("precision");
    expect(reason(new JsonExactNumber("1e-400"))).toBe("precision");
    expect(reason(1e21)).toBe("too_large");
    expect(reason("1e21")).toBe("too_large");
    expect(reason("1e99999999999")).toBe("too_large");
    expect(reason(new JsonExactNumber("1e400"))).toBe("too_large");
    expect(reason("0e5")).toBe("zero");
    expect(reason("-1e-2")).toBe("negative");
    expect(reason("1e")).toBe("format");
    expect(reason("e5")).toBe("format");
    expect(reason("1e+-5")).toBe("format");
    expect(reason("+1")).toBe("format");
    expect(reason("-1")).toBe("negative");
    expect(reason("0")).toBe("zero");
    expect(reason("0.000000000")).toBe("zero");
    expect(reason(Number.NaN)).toBe("format");
    expect(reason("1.123456789")).toBe("precision");
    expect(reason("1.001", 2)).toBe("precision");
    expect(reason("1.100", 2)).toBe("accepted");
    expect(reason(" 1.5")).toBe("accepted");
    expect(reason("1,5")).toBe("format");
    expect(reason("0x10")).toBe("format");
    expect(reason({})).toBe("format");
    expect(reason("9".repeat(30))).toBe("too_large");
    // Megabyte-long spellings are judged in one pass (a quadratic zero trim once took minutes).
    const zeros = "0".repeat(1_000_000);
    expect(reason(`1.${zeros}1`)).toBe("precision");
    expect(reason(`1.5${zeros}`)).toBe("accepted");
    expect(reason(`1${zeros}1e-1000001`)).toBe("precision");
    expect(reason(`15${zeros}e-1000001`)).toBe("accepted");
  });

  it("rounds in the requested direction only, never silently", () => {
    expect(divide(7n, 2n, "down")).toBe(3n);
    expect(divide(7n, 2n, "up")).toBe(4n);
    expect(divide(-7n, 2n, "down")).toBe(-4n);
    expect(divide(-7n, 2n, "up")).toBe(-3n);
    fc.assert(
      fc.property(units, fc.bigInt({ min: 1n, max: 10n ** 12n }), (a, b) => {
        const down = divide(a, b, "down");
        const up = divide(a, b, "up");
        // down <= a/b <= up, and they differ by at most one unit
        return down * b <= a && up * b >= a && up - down <= 1n;
      }),
    );
  });

  it("multiplies an amount by a rate with one explicit rounding", () => {
    const amount = parseDecimal("0.12345678");
    const rate = parseDecimal("43210.98765432");
    const exact = amount * rate; // scale 10^16
    const down = multiply(amount, rate, "down");
    expect(down * UNIT <= exact && exact < (down + 1n) * UNIT).toBe(true);
    expect(multiply(amount, rate, "up") - down).toBe(1n);
  });

  it("applies percentages held as parts per million", () => {
    expect(percentOf(parseDecimal("100"), 5_000, "up")).toBe(parseDecimal("0.5"));
    expect(percentOf(3n, 5_000, "up")).toBe(1n);
    expect(percentOf(3n, 5_000, "down")).toBe(0n);
    expect(formatPercent(9_900)).toBe("0.99");
    expect(formatPercent(0)).toBe("0");
    expect(formatPercent(10_000)).toBe("1");
    expect(formatPercent(12_345)).toBe("1.2345");
  });

  it("rounds to a currency's precision", () => {
    expect(roundToPrecision(parseDecimal("1.239"), 2, "down")).toBe(parseDecimal("1.23"));
    expect(roundToPrecision(parseDecimal("1.231"), 2, "up")).toBe(parseDecimal("1.24"));
    expect(roundToPrecision(parseDecimal("1.23"), 2, "up")).toBe(parseDecimal("1.23"));
  });

  it("reads any stored amount back exactly, even above the input cap", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }), (units) => {
        expect(parseStoredAmount(formatAmount(units))).toBe(units);
      }),
    );
    expect(() => parseDecimal(formatAmount(MAX_AMOUNT + 1n))).toThrow();
    expect(parseStoredAmount(formatAmount(MAX_AMOUNT + 1n))).toBe(MAX_AMOUNT + 1n);
    expect(fitsCap(MAX_AMOUNT)).toBe(true);
    expect(fitsCap(MAX_AMOUNT + 1n)).toBe(false);
  });
});

describe("grouped digits (dashboard amounts)", () => {
  it("groups the whole part in threes with narrow no-break spaces, leaving sign and fraction", () => {
    const s = "\u202f";
    expect(groupDigits("1234567.12345678 BTC")).toBe(`1${s}234${s}567.12345678 BTC`);
    expect(groupDigits("-1000.00 EUR")).toBe(`-1${s}000.00 EUR`);
    expect(groupDigits("999.5")).toBe("999.5");
    expect(groupDigits("100000")).toBe(`100${s}000`);
    expect(dashboardAmount(123456789n * 10n ** 6n, "EUR")).toBe(`1${s}234${s}567.89 EUR`);
  });
});
