import { z } from "zod";
import { AmountFormatError, formatAmount, parsePositiveAmount } from "@/lib/money";
import "./messages";

const REASONS: Record<AmountFormatError["reason"], string> = {
  format: "The :attribute must be a number.",
  exponent: "The :attribute must be a plain decimal number, not exponent notation.",
  negative: "The :attribute must be greater than zero.",
  zero: "The :attribute must be greater than zero.",
  precision: "The :attribute has more decimal places than the currency allows.",
  too_large: "The :attribute is too large.",
};

/**
 * An amount as the API accepts it: a JSON number or a decimal string, positive, no exponent form,
 * at most 8 fraction digits here (a currency's own precision is checked where the currency is
 * known). Parses to bigint minor units.
 */
export const amount = z
  .union([z.number(), z.string()])
  .transform((input, ctx) => {
    try {
      return parsePositiveAmount(input);
    } catch (error) {
      if (!(error instanceof AmountFormatError)) throw error;
      ctx.addIssue({ code: "custom", message: REASONS[error.reason], input });
      return z.NEVER;
    }
  })
  .meta({
    description: "A positive decimal, as a JSON number or a string; at most 8 fraction digits.",
    example: "12.5",
  });

/** An amount on the wire: a decimal string with exactly 8 fraction digits. */
export const wireAmount = z
  .string()
  .regex(/^-?\d+\.\d{8}$/)
  .meta({ example: "12.50000000" });

export const toWire = formatAmount;
