import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_AMOUNT, parseDecimal } from "@/lib/money";
import { convert, convertParts, formatRate, invert, makeRate, rateFromPrices } from "@/lib/rates/rate";

/**
 * Every check here is an independent computation from the two prices and the spread, by integer
 * cross-multiplication: the exact value of converting `a` is a·from·(10^6 − spread) / (to·10^6).
 */
const price = fc.bigInt({ min: 1n, max: 10n ** 17n }); // 0.00000001 to 10^9 USD, in minor units
const spread = fc.integer({ min: 0, max: 100_000 });
const amount = fc.bigInt({ min: 1n, max: MAX_AMOUNT });
const precision = fc.constantFrom(0, 2, 6, 8);

const exactParts = (a: bigint, from: bigint, to: bigint, ppm: number) => ({
  numerator: a * from * (1_000_000n - BigInt(ppm)),
  denominator: to * 1_000_000n,
});

describe("rates", () => {
  it("converts in the merchant's disfavour by less than one step of the target precision", () => {
    fc.assert(
      fc.property(amount, price, price, spread, precision, (a, from, to, ppm, digits) => {
        const step = 10n ** BigInt(8 - digits);
        const exact = exactParts(a, from, to, ppm);
        const rate = rateFromPrices({ fromPrice: from, toPrice: to, spreadPpm: ppm });
        // What the merchant receives: never more than the exact value, less by under one step.
        const down = convert(a, rate, "down", digits);
        expect(down % step).toBe(0n);
        expect(down * exact.denominator <= exact.numerator).toBe(true);
        expect(exact.numerator < (down + step) * exact.denominator).toBe(true);
        // What the merchant is owed or debited: never less than the exact value.
        const up = convert(a, rate, "up", digits);
        expect(up % step).toBe(0n);
        expect(up * exact.denominator >= exact.numerator).toBe(true);
        expect((up - step) * exact.denominator < exact.numerator).toBe(true);
      }),
      { numRuns: 2_000 },
    );
  });

  it("converts back through the inverted rate, rounding the amount owed up", () => {
    fc.assert(
      fc.property(amount, price, price, spread, precision, (target, from, to, ppm, digits) => {
        const step = 10n ** BigInt(8 - digits);
        // Source needed so that source·from·(1 − s) ≥ target·to: the smallest such multiple of step.
        const source = convert(
          target,
          invert(rateFromPrices({ fromPrice: from, toPrice: to, spreadPpm: ppm })),
          "up",
          digits,
        );
        const value = (s: bigint) => s * from * (1_000_000n - BigInt(ppm));
        const owed = target * to * 1_000_000n;
        expect(value(source) >= owed).toBe(true);
        expect(value(source - step) < owed).toBe(true);
      }),
      { numRuns: 1_000 },
    );
  });

  it("sums parts at different rates with one rounding", () => {
    fc.assert(
      fc.property(amount, amount, price, price, price, (a, b, p1, p2, to) => {
        const locked = rateFromPrices({ fromPrice: p1, toPrice: to, spreadPpm: 5_000 });
        const now = rateFromPrices({ fromPrice: p2, toPrice: to, spreadPpm: 5_000 });
        const sum = convertParts(
          [
            { amount: a, rate: locked },
            { amount: b, rate: now },
          ],
          "down",
          2,
        );
        // Independent: (a·p1 + b·p2)·995000 / (to·10^6), cents down.
        const numerator = (a * p1 + b * p2) * 995_000n;
        const denominator = to * 1_000_000n;
        const step = 1_000_000n;
        expect(sum * denominator <= numerator).toBe(true);
        expect(numerator < (sum + step) * denominator).toBe(true);
      }),
    );
  });

  it("keeps rates exact and reduced, never zero", () => {
    const rate = rateFromPrices({ fromPrice: 1n, toPrice: 10n ** 17n, spreadPpm: 999_999 });
    expect(rate.numerator > 0n).toBe(true);
    expect(makeRate(6n, 4n)).toEqual({ numerator: 3n, denominator: 2n });
    expect(() => makeRate(0n, 1n)).toThrow(RangeError);
  });

  it("gives the issue's figures at the sandbox prices (DOGE 0.15, BTC 65000, spread 0.5%)", () => {
    const dogeToBtc = rateFromPrices({
      fromPrice: parseDecimal("0.15"),
      toPrice: parseDecimal("65000"),
      spreadPpm: 5_000,
    });
    // 100,000 × 0.15 × 0.995 / 65000 = 0.229615384…: 0.22961538 BTC, not the truncated rate's 0.228.
    expect(convert(parseDecimal("100000"), dogeToBtc, "down", 8)).toBe(parseDecimal("0.22961538"));
    // 1 BTC invoice paid in DOGE: 65000 / (0.15 × 0.995) = 435510.8877…: 435510.89 DOGE up.
    expect(convert(parseDecimal("1"), invert(dogeToBtc), "up", 2)).toBe(parseDecimal("435510.89"));
    // Shown with 8 digits, for display only.
    expect(formatRate(dogeToBtc)).toBe("0.00000229");
  });
});
