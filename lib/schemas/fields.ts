import { z } from "zod";
import { isOffered } from "@/lib/currencies/offering";
import { CURRENCY_CODES, findCurrency } from "@/lib/currencies/registry";
import { JsonExactNumber } from "@/lib/json";
import "./messages";

/**
 * A currency code of the registry that this installation offers (lib/currencies/offering.ts);
 * case-insensitive on input, upper case after parsing.
 */
export const currencyCode = z
  .string()
  .trim()
  .toUpperCase()
  .refine((code) => isOffered(code), { error: "The selected :attribute is invalid." })
  .meta({ enum: CURRENCY_CODES, example: "BTC" });

/** A crypto currency code (payments and withdrawals move on a chain). */
export const cryptoCurrencyCode = currencyCode.refine((code) => findCurrency(code)?.kind === "crypto", {
  error: "The :attribute must be a crypto currency.",
});

/** An absolute http(s) URL: redirect targets must never be javascript:, data: or relative. */
export const httpUrl = z
  .string()
  .trim()
  .max(2048)
  .refine(
    (value) => {
      try {
        const url = new URL(value);
        return (url.protocol === "https:" || url.protocol === "http:") && url.hostname.length > 0;
      } catch {
        return false;
      }
    },
    { error: "The :attribute must be a valid http or https URL." },
  )
  .meta({ format: "uri", example: "https://shop.example/orders/1042/paid" });

/**
 * A callback URL as typed: its rules (https, no private targets in production) depend on the mode
 * and DNS, so lib/callbacks checks it when it is set; here only its size.
 */
export const callbackUrl = z.string().trim().max(2048);

/**
 * A JSON integer with more digits than a double holds (lib/json.ts reads it as a JsonExactNumber);
 * described as an integer in the OpenAPI document (lib/openapi/document.ts).
 */
export const exactInteger = z.custom<JsonExactNumber>(
  (value) => value instanceof JsonExactNumber && /^-?\d+$/.test(value.literal),
);

/** The merchant's id for an object: a string, or an integer sent as a JSON number (kept as text). */
export const foreignId = z
  // An integer with more digits than a double holds is kept as its exact digits.
  .union([z.string(), z.int(), exactInteger], {
    error: (issue) =>
      issue.input === undefined ? undefined : "The :attribute must be a string or an integer.",
  })
  .transform((value) => String(value).trim())
  .pipe(z.string().min(1).max(255))
  .meta({
    description: "Your unique id for this object; unique across all your transactions.",
    example: "order-1042",
  });
