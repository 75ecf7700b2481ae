import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { dashboardAmount } from "@/components/dashboard/dashboard-amount";
import { customerAmount, displayAmount } from "@/lib/checkout/present";
import { exactNote, formatMoney, formatRateText, formatRateValue } from "@/lib/format-money";
import { formatAmount } from "@/lib/money";

/** U+202F, the narrow no-break space every page groups digits with by default. */
const s = "\u202f";

/**
 * The independent computation: Intl.NumberFormat fed the exact decimal string (Node 20 formats a
 * string by its digits, never through a double; rounding "halfExpand", halves away from zero), its
 * commas turned into the default narrow spaces.
 */
function intl(decimal: string, options: Intl.NumberFormatOptions): string {
  // The typings predate string input and signDisplay "negative" (ECMA-402 NumberFormat v3), which
  // Node 20 supports; "negative" writes a negative that rounds to zero as "0", as pages do.
  const settings = {
    ...options,
    useGrouping: true,
    signDisplay: "negative",
  } as unknown as Intl.NumberFormatOptions;
  const format = new Intl.NumberFormat("en-US", settings).format as unknown as (v: string) => string;
  return format(decimal).replaceAll(",", s).replace("\u2212", "-");
}

/** Amounts of every size, 10^-8 to 10^20, either sign. */
const anyUnits = fc.oneof(
  fc.bigInt({ min: -(10n ** 12n), max: 10n ** 12n }),
  fc.bigInt({ min: 1n, max: 10n ** 28n }),
  fc.bigInt({ min: 1n, max: 10n ** 9n }),
);

describe("money for people", () => {
  it("shows the issue's figures as money reads", () => {
    expect(formatMoney("1297.86828788", "EUR").text).toBe(`1${s}297.87 EUR`);
    expect(formatMoney("54.61555781", "EUR").text).toBe("54.62 EUR");
    expect(formatMoney("0.10000000", "BTC").text).toBe("0.1 BTC");
    expect(formatRateText("59884.25925925", "BTC", "EUR").text).toBe(`1 BTC = 59${s}884.3 EUR`);
    expect(formatMoney("120.00000000", "EUR").text).toBe("120.00 EUR");
    expect(formatMoney("0.00166989", "BTC").text).toBe("0.00166989 BTC");
    expect(formatMoney("1234.5", "LTC").text).toBe(`1${s}234.5 LTC`);
  });

  it("says when a figure is rounded, and keeps every digit in `exact`", () => {
    const credited = formatMoney("54.61555781", "EUR");
    expect(credited).toEqual({ text: "54.62 EUR", exact: "54.61555781 EUR", isRounded: true });
    expect(exactNote(credited)).toBe("Exactly 54.61555781 EUR (shown rounded to the nearest)");
    const whole = formatMoney("24.90000000", "EUR");
    expect(whole).toEqual({ text: "24.90 EUR", exact: "24.90 EUR", isRounded: false });
    expect(exactNote(whole)).toBeUndefined();
    // A crypto amount past its currency's precision (USDT has 6) rounds there, and says so.
    expect(formatMoney("1.23456789", "USDTE")).toEqual({
      text: "1.234568 USDTE",
      exact: "1.23456789 USDTE",
      isRounded: true,
    });
  });

  it("rounds fiat to its cents as an independent formatter does, for every size and sign", () => {
    fc.assert(
      fc.property(anyUnits, (units) => {
        const expected = `${intl(formatAmount(units), { minimumFractionDigits: 2, maximumFractionDigits: 2 })} EUR`;
        expect(formatMoney(units, "EUR").text).toBe(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it("shows crypto to the digits it has, up to its precision, as an independent formatter does", () => {
    fc.assert(
      fc.property(
        anyUnits,
        fc.constantFrom(["BTC", 8], ["USDTT", 6], ["XRP", 6]),
        (units, [code, precision]) => {
          const decimal = formatAmount(units);
          expect(formatMoney(units, code).text).toBe(
            `${intl(decimal, { maximumFractionDigits: precision })} ${code}`,
          );
          // Nothing is lost: the exact text has every digit of the wire form.
          expect(formatMoney(units, code).exact.replaceAll(s, "")).toBe(
            `${decimal.replace(/\.?0+$/, "")} ${code}`,
          );
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("gives rates six significant digits, as an independent formatter does", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 24n }), (units) => {
        const decimal = formatAmount(units);
        expect(formatRateValue(decimal).text).toBe(intl(decimal, { maximumSignificantDigits: 6 }));
      }),
      { numRuns: 2000 },
    );
    expect(formatRateValue("0.00001669").text).toBe("0.00001669");
    expect(formatRateValue("1234567.89").text).toBe(`1${s}234${s}570`);
  });

  it("writes a locale's separators when a page knows the locale", () => {
    expect(formatMoney("1297.86828788", "EUR", { locale: "de-DE" }).text).toBe("1.297,87 EUR");
    expect(formatMoney("1297.86828788", "EUR", { locale: "en-US" }).text).toBe("1,297.87 EUR");
    expect(formatRateText("59884.25925925", "BTC", "EUR", { locale: "de-DE" }).text).toBe(
      "1 BTC = 59.884,3 EUR",
    );
  });

  it("is the rule the dashboard and the checkout both use", () => {
    expect(dashboardAmount("1297.86828788", "EUR")).toBe(`1${s}297.87 EUR`);
    expect(displayAmount("1297.86828788", "EUR")).toBe(`1${s}297.87 EUR`);
    expect(customerAmount("1234.5", "USDTT")).toBe(`1${s}234.5 USDT (TRC-20)`);
  });
});
