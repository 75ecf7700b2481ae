import "server-only";

import type { Clock } from "@/lib/clock";
import { getCurrency } from "@/lib/currencies/registry";
import type { Executor } from "@/lib/db/client";
import { KassaError, notFound } from "@/lib/errors";
import { type InvoiceRecord, loadInvoiceById } from "@/lib/invoices/load-invoice";
import { readBalance } from "@/lib/ledger/read-balance";
import type { Pricing } from "@/lib/rates/pricing";
import { convert } from "@/lib/rates/rate";
import { priceWithdrawal } from "@/lib/withdrawals/price-withdrawal";
import { refundableCurrencies, refundCurrencies } from "./check-refund-currencies";
import { creditedRate } from "./credited-rate";
import { type OwedBack, owedBack } from "./owed-back";
import { priceRefundPayout, type RefundPayoutPrice } from "./price-refund-payout";
import type { RefundTerms } from "./refund-terms";
import { resolveRefundAmount } from "./resolve-refund-amount";

export type RefundPreview = {
  invoiceId: number;
  /** The coin paid, what the invoice owes back in it, and what no refund covers yet. */
  currency: string;
  owed: bigint;
  left: bigint;
  /** What this refund settles, in the coin paid. */
  amount: bigint;
  /** `amount` in the invoice currency at the rate the merchant was credited for it (./credited-rate.ts). */
  paymentValue: bigint;
  /** What the customer would receive in each coin they may choose, the one paid first. */
  options: RefundOption[];
  /** Every allowed coin is under its network's minimum: the refund cannot be offered as it is. */
  isUnderMinimum: boolean;
  /** When the coin paid is under its minimum: what would work instead. */
  alternatives: {
    /** The smallest amount, in the coin paid, that reaches its minimum (the merchant pays the difference). */
    largerAmount: bigint;
    /** Other coins whose refund of `amount` would not be under their minimum. */
    otherCurrencies: string[];
  } | null;
  /** The merchant's balance in the invoice currency, which the claim's payout draws on (null in `previewFor`). */
  balance: { currency: string; available: bigint } | null;
};

export type RefundOption = Omit<RefundPayoutPrice, "withdrawal"> & {
  /**
   * What the claim's payout would take from the merchant's balance in the invoice currency now
   * (conversion and fees included; the rate moves until it is claimed), and whether that balance
   * covers it: a claim the balance does not cover is refused, and the customer told to try later.
   * Null under the minimum, or in `previewFor` (issuing does not price the payout).
   */
  debit: bigint | null;
  isInsufficient: boolean;
};

/**
 * What a refund on these terms would send, per coin, before it is issued, with what each payout
 * would take from the merchant's balance (`balance`: the invoice currency's, available now).
 */
export async function previewRefund(
  db: Executor,
  input: { merchantId: number; invoiceId: number; terms: RefundTerms; pricing: Pricing; clock?: Clock },
): Promise<RefundPreview> {
  const record = await loadInvoiceById(db, input.invoiceId);
  if (!record || record.merchantId !== input.merchantId)
    throw notFound(`There is no invoice ${input.invoiceId} in your account.`);
  const owed = await owedBack(db, record, { clock: input.clock });
  const preview = await previewFor(db, { record, owed, terms: input.terms });
  const available = await readBalance(db, { merchantId: record.merchantId, currency: record.currency });
  const options: RefundOption[] = [];
  for (const option of preview.options) {
    if (option.isUnderMinimum || option.receives === 0n) {
      options.push(option);
      continue;
    }
    // Priced as the claim's payout is (claimRefund → createWithdrawal): the same source, target and amount.
    const debit = await priceWithdrawal(db, {
      merchantId: record.merchantId,
      source: record.currency,
      target: option.currency,
      amountTo: option.receives,
      pricing: input.pricing,
      isRefund: true,
    }).then(
      (price) => price.totalDebit,
      (error: unknown) => {
        // Not priceable now (a conversion without a rate): the preview says so by a null debit.
        if (error instanceof KassaError && error.code === "validation_failed") return null;
        throw error;
      },
    );
    options.push({ ...option, debit, isInsufficient: debit !== null && debit > available });
  }
  return { ...preview, options, balance: { currency: record.currency, available } };
}

/** The preview of a loaded invoice: issueRefund runs it under the invoice's row lock. */
export async function previewFor(
  db: Executor,
  input: { record: InvoiceRecord; owed: OwedBack | null; terms: RefundTerms },
): Promise<RefundPreview> {
  const { record, terms } = input;
  const owed = input.owed ?? {
    currency: record.invoice.senderCurrency ?? record.currency,
    owed: 0n,
    left: 0n,
    isOverpaid: false,
    kind: "short",
  };
  const pay = getCurrency(owed.currency);
  const reach = pay.minimumWithdrawalAmount + (terms.feePaidBy === "customer" ? pay.networkFee : 0n);
  const amount = resolveRefundAmount({ invoiceId: record.id, owed, amount: terms.amount, reach });
  // What the coins given back were credited at, so "what the payment was worth" is what the merchant got.
  const rate = await creditedRate(db, record, owed.kind);
  const paymentValue = convert(amount, rate, "down", getCurrency(record.currency).precision);
  const price = (currency: string) =>
    priceRefundPayout(db, {
      merchantId: record.merchantId,
      invoiceCurrency: record.currency,
      payCurrency: owed.currency,
      owedAmount: amount,
      paymentValue,
      rateBasis: terms.rateBasis,
      feePaidBy: terms.feePaidBy,
      currency,
    });
  const options: RefundPayoutPrice[] = [];
  // One after the other: `db` may be a transaction, which runs one statement at a time.
  for (const currency of refundCurrencies(owed.currency, terms.currencies))
    options.push(await price(currency));
  const paid = options[0]!;
  let alternatives: RefundPreview["alternatives"] = null;
  if (paid.isUnderMinimum) {
    const otherCurrencies: string[] = [];
    for (const currency of refundableCurrencies()) {
      if (currency === owed.currency) continue;
      const option = await price(currency).catch(() => null);
      if (option && !option.isUnderMinimum) otherCurrencies.push(currency);
    }
    alternatives = { largerAmount: reach, otherCurrencies };
  }
  return {
    invoiceId: record.id,
    currency: owed.currency,
    owed: owed.owed,
    left: owed.left,
    amount,
    paymentValue,
    options: options.map(({ withdrawal: _, ...option }) => ({
      ...option,
      debit: null,
      isInsufficient: false,
    })),
    isUnderMinimum: options.every((option) => option.isUnderMinimum),
    alternatives,
    balance: null,
  };
}
