import "server-only";

import { getCurrency } from "@/lib/currencies/registry";
import type { Executor } from "@/lib/db/client";
import { fieldError } from "@/lib/errors";
import { formatAmountShort, MAX_AMOUNT } from "@/lib/money";
import type { Pricing } from "@/lib/rates/pricing";
import { convert, invert, type Rate } from "@/lib/rates/rate";
import { quote, RateUnavailableError } from "@/lib/rates/rates";

export type InvoicePrice = { rate: Rate; spreadPpm: number; senderAmount: bigint };

/**
 * The spread of an invoice's conversions: the one fixed with its price, which every write of a pay
 * currency stores beside it. An invoice without a pay currency has converted nothing (0).
 */
export function invoiceSpreadPpm(invoice: { spreadPpm: number | null }): number {
  return invoice.spreadPpm ?? 0;
}

/**
 * What a customer must send in `payCurrency` for an invoice of `amount` in `invoiceCurrency`, at the
 * rate locked now (exact, spread included). The amount due is rounded once, up, to the pay
 * currency's precision: the merchant never receives less than the invoice amount, the customer
 * pays at most one smallest unit more than the exact figure. An amount due above the amount cap is
 * refused here, before it could be stored (it would make the invoice unreadable).
 */
export async function priceInvoice(
  db: Executor,
  input: {
    merchantId: number;
    invoiceCurrency: string;
    amount: bigint;
    payCurrency: string;
    pricing: Pricing;
    field: string;
  },
): Promise<InvoicePrice> {
  const pay = getCurrency(input.payCurrency);
  if (pay.kind !== "crypto")
    throw fieldError({ [input.field]: `Payments are made in crypto currencies, not ${pay.code}.` });
  let rate: Rate;
  let spreadPpm: number;
  try {
    ({ rate, spreadPpm } = await quote(db, {
      merchantId: input.merchantId,
      from: pay.code,
      to: input.invoiceCurrency,
      spreadPpm: input.pricing.spreadPpm,
    }));
  } catch (error) {
    if (error instanceof RateUnavailableError) {
      throw fieldError({
        [input.field]: `${pay.code} cannot be used for this invoice right now: no exchange rate.`,
      });
    }
    throw error;
  }
  const senderAmount = convert(input.amount, invert(rate), "up", pay.precision);
  if (senderAmount > MAX_AMOUNT) {
    throw fieldError({
      [input.field]: `The amount in ${pay.code} would be too large to pay; choose another currency or a smaller amount.`,
    });
  }
  if (senderAmount < pay.minimumAmount) {
    throw fieldError({
      [input.field]: `The amount is below the smallest ${pay.code} payment (${formatAmountShort(pay.minimumAmount)} ${pay.code}); choose another currency.`,
    });
  }
  return { rate, spreadPpm, senderAmount };
}

/**
 * Payments within one smallest unit of the currency count as exact: its last digit for crypto, a
 * cent (its ISO 4217 minor unit) for fiat, whose 8-digit precision no customer can aim at.
 */
export function paymentTolerance(currencyCode: string): bigint {
  const currency = getCurrency(currencyCode);
  return 10n ** BigInt(8 - (currency.minorUnit ?? currency.precision));
}
