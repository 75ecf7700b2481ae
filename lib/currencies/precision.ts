import { fieldError } from "@/lib/errors";
import { roundToPrecision } from "@/lib/money";
import { type Currency, getCurrency } from "./registry";

/**
 * The one "fits the currency's precision" rule: an amount in minor units (10^-8) has no
 * more fraction digits than the currency allows (6 for USDT, 8 for BTC and for fiat). The request schemas check
 * it with refinePrecision (lib/schemas/amount.ts); the engine functions check it again with
 * assertFitsPrecision for callers that do not come through a schema (the CLI, tests, jobs).
 */
export function fitsPrecision(units: bigint, currency: Pick<Currency, "precision">): boolean {
  return roundToPrecision(units, currency.precision, "down") === units;
}

/** What a merchant reads when an amount has too many decimals; `attribute` names the field. */
export function precisionMessage(attribute: string, currency: Pick<Currency, "code" | "precision">): string {
  return `The ${attribute} has more decimal places than ${currency.code} allows (${currency.precision}).`;
}

/** Throws the field error of `field` when `units` does not fit `currencyCode`'s precision. */
export function assertFitsPrecision(input: { units: bigint; currency: string; field: string }): void {
  const currency = getCurrency(input.currency);
  if (fitsPrecision(input.units, currency)) return;
  throw fieldError({ [input.field]: precisionMessage(input.field.replace(/_/g, " "), currency) });
}
