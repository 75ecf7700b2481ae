import { getCurrency } from "@/lib/currencies/registry";
import type { Executor } from "@/lib/db/client";
import { fieldError } from "@/lib/errors";
import { divide, formatAmountShort, roundToPrecision, UNIT } from "@/lib/money";
import { quote, RateUnavailableError } from "@/lib/rates/rates";

export type InvoicePrice = { rate: bigint; spreadPpm: number; senderAmount: bigint };

/**
 * What a customer must send in `payCurrency` for an invoice of `amount` in `invoiceCurrency`, at the
 * rate locked now. The rate (spread included) is rounded down and the amount due rounded up to the
 * pay currency's precision: the merchant never receives less than the invoice amount, the customer
 * pays at most one smallest unit more than the exact figure.
 */
export async function priceInvoice(
  db: Executor,
  input: { invoiceCurrency: string; amount: bigint; payCurrency: string; spreadPpm: number; field: string },
): Promise<InvoicePrice> {
  const pay = getCurrency(input.payCurrency);
  if (pay.kind !== "crypto")
    throw fieldError({ [input.field]: `Payments are made in crypto currencies, not ${pay.code}.` });
  let rate: bigint;
  let spreadPpm: number;
  try {
    ({ rate, spreadPpm } = await quote(db, {
      from: pay.code,
      to: input.invoiceCurrency,
      spreadPpm: input.spreadPpm,
    }));
  } catch (error) {
    if (error instanceof RateUnavailableError) {
      throw fieldError({
        [input.field]: `${pay.code} cannot be used for this invoice right now: no exchange rate.`,
      });
    }
    throw error;
  }
  const exact = divide(input.amount * UNIT, rate, "up");
  const senderAmount = roundToPrecision(exact, pay.precision, "up");
  if (senderAmount < pay.minimumAmount) {
    throw fieldError({
      [input.field]: `The amount is below the smallest ${pay.code} payment (${formatAmountShort(pay.minimumAmount)} ${pay.code}); choose another currency.`,
    });
  }
  return { rate, spreadPpm, senderAmount };
}

/** Payments within one smallest unit of the currency's precision count as exact. */
export function paymentTolerance(currencyCode: string): bigint {
  return 10n ** BigInt(8 - getCurrency(currencyCode).precision);
}
