import { z } from "zod";
import { fitsPrecision, precisionMessage } from "@/lib/currencies/precision";
import { findCurrency } from "@/lib/currencies/registry";
import { JsonExactNumber } from "@/lib/json";
import { AmountFormatError, formatAmount, parsePositiveAmount } from "@/lib/money";
import "./messages";

const REASONS: Record<AmountFormatError["reason"], string> = {
  format: "The :attribute must be a number.",
  negative: "The :attribute must be greater than zero.",
  zero: "The :attribute must be greater than zero.",
  precision: "The :attribute has more decimal places than the currency allows.",
  too_large: "The :attribute is too large.",
};

/**
 * A JSON number with more digits than a double holds (lib/json keeps its literal). Only amounts
 * accept it; described as a number in the OpenAPI document (lib/openapi/document.ts).
 */
export const exactNumber = z.custom<JsonExactNumber>((value) => value instanceof JsonExactNumber);

/**
 * An amount as the API accepts it: a JSON number or a decimal string, positive, read by its exact
 * value whatever its spelling (`1e-05` is 0.00001), at most 8 fraction digits here (a currency's
 * own precision is checked by `refinePrecision` where the currency is known). Parses to bigint
 * minor units.
 */
export const amount = z
  .union([z.number(), z.string(), exactNumber])
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
    description:
      "A positive decimal, as a JSON number or a string, read by its exact value (exponent forms such as 1e-05 " +
      "included); at most as many fraction digits as the currency allows (8 at most).",
    example: "12.5",
  });

/** An amount on the wire: a decimal string with exactly 8 fraction digits. */
export const wireAmount = z
  .string()
  .regex(/^-?\d+\.\d{8}$/)
  .meta({ example: "12.50000000" });

export const toWire = formatAmount;

/**
 * The one "fits the currency's precision" rule: each amount field that is present must have no
 * more fraction digits than the currency named by `currency` (a field of the same object) allows.
 * Used as `.superRefine(refinePrecision({ amount: "currency" }))`; a field whose currency is
 * missing or unknown is left to that field's own error.
 */
export function refinePrecision(fields: Record<string, string>) {
  return <Value extends object>(value: Value, ctx: z.RefinementCtx<Value>) => {
    const values = value as Record<string, unknown>;
    for (const [field, currencyField] of Object.entries(fields)) {
      const units = values[field];
      const currency = findCurrency(String(values[currencyField] ?? ""));
      if (typeof units !== "bigint" || !currency) continue;
      if (!fitsPrecision(units, currency)) {
        ctx.addIssue({ code: "custom", path: [field], message: precisionMessage(":attribute", currency) });
      }
    }
  };
}
