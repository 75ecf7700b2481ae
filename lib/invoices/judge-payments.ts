import "server-only";

import type { Executor } from "@/lib/db/client";
import { computeCredit } from "@/lib/deposits/compute-credit";
import { isFullyLocked, rateOfTheMoment, recordedParts } from "@/lib/deposits/rate-payment";
import type { Rate } from "@/lib/rates/rate";
import { type InvoiceDeposit, listInvoiceDeposits } from "./list-invoice-deposits";
import type { InvoiceRecord } from "./load-invoice";
import { invoiceSpreadPpm, paymentTolerance } from "./price-invoice";

/**
 * An invoice's payments in figures: how much of them its locked rate covered (pay currency),
 * whether all of each was covered, what they are worth in the invoice currency (the sum of their
 * gross credits, before the deposit fee, each at the rates recorded for it), and `net`, the same
 * after the fee: for credited payments exactly what the merchant's balance received.
 */
export type PaymentsWorth = {
  lockedPaid: bigint;
  isAllLocked: boolean;
  worth: bigint;
  net: bigint;
  /** Some payment is in another currency than the pay currency (sent to an address shown before a switch). */
  hasOtherCurrency: boolean;
  count: number;
};

/**
 * The worth of an invoice's payments in `statuses` (credited ones by default). A payment without a
 * recorded rate for its rest (seen while no rate could be had) is valued at `fallback` (a rate of
 * the pay currency, so only a payment in it), or not at all when there is none; one in another coin
 * at that coin's rate of now.
 */
export async function paymentsWorth(
  db: Executor,
  record: InvoiceRecord,
  options: {
    statuses?: ("seen" | "credited")[];
    fallback?: Rate | null;
    /** The invoice's deposits, any status, when the caller read them already (one query less). */
    deposits?: InvoiceDeposit[];
  } = {},
): Promise<PaymentsWorth> {
  const statuses = options.statuses ?? ["credited"];
  const all = options.deposits ?? (await listInvoiceDeposits(db, record.id));
  const rows = all.filter((row) => (statuses as string[]).includes(row.status));
  let lockedPaid = 0n;
  let worth = 0n;
  let net = 0n;
  let isAllLocked = true;
  let hasOtherCurrency = false;
  for (const row of rows) {
    if (row.currency !== record.invoice.senderCurrency) hasOtherCurrency = true;
    if (row.lockedRateNumerator !== null) lockedPaid += row.lockedAmount;
    if (!isFullyLocked(row)) isAllLocked = false;
    // The fallback is a rate of the pay currency: a payment in another coin (sent to an address
    // shown before a switch) is never valued at it, but at its own coin's rate of now, the rate its
    // crediting will use (lib/deposits/book-deposit.ts).
    const isPayCurrency = row.currency === record.invoice.senderCurrency;
    const parts =
      recordedParts(row, record.currency, isPayCurrency ? (options.fallback ?? null) : null) ??
      (isPayCurrency ? null : await partsAtRateOfNow(db, record, row));
    if (!parts) continue;
    const credit = computeCredit({ parts, payCurrency: row.currency, creditCurrency: record.currency });
    worth += credit.gross;
    net += credit.net;
  }
  return { lockedPaid, isAllLocked, worth, net, hasOtherCurrency, count: rows.length };
}

/** A payment in another coin than the pay currency, seen while no rate could be had, at its rate of now. */
async function partsAtRateOfNow(db: Executor, record: InvoiceRecord, row: InvoiceDeposit) {
  const rate = await rateOfTheMoment(db, {
    merchantId: record.merchantId,
    from: row.currency,
    to: record.currency,
    spreadPpm: invoiceSpreadPpm(record.invoice),
  });
  return rate ? recordedParts(row, record.currency, rate) : null;
}

/**
 * Whether an invoice is paid in full (DESIGN.md section 3). Paid under its lock: in the pay currency
 * against the amount due. Otherwise (a later rate, or coins switched) by value: the payments' worth in the
 * invoice currency against its amount. A difference within one smallest unit is exact; a shortfall
 * within the merchant's underpayment tolerance counts as paid.
 */
export type PaymentJudgement = {
  isComplete: boolean;
  isOverpaid: boolean;
  /** Complete only thanks to the merchant's underpayment tolerance. */
  isWithinTolerance: boolean;
  /** Set when judged by value: what was paid and asked, in the invoice currency. */
  worth: { paid: bigint; due: bigint; currency: string } | null;
};

/** The share of `due` the merchant forgives, rounded down: a tolerance never forgives more than it says. */
export function toleratedShortfall(due: bigint, toleranceBp: number): bigint {
  return (due * BigInt(toleranceBp)) / 10_000n;
}

export function judgePayments(
  record: InvoiceRecord,
  payments: PaymentsWorth,
  paid: bigint = record.invoice.confirmedAmount,
): PaymentJudgement {
  const { invoice } = record;
  const due = invoice.senderAmount!;
  const payTolerance = paymentTolerance(invoice.senderCurrency!);
  const isUnderLock = payments.isAllLocked || payments.lockedPaid + payTolerance >= due;
  // Money in another coin cannot be summed with the pay currency's: such an invoice is judged by value.
  if (isUnderLock && !payments.hasOtherCurrency) {
    return {
      ...judge(paid, due, payTolerance, record.underpaymentToleranceBp),
      worth: null,
    };
  }
  return {
    ...judge(
      payments.worth,
      record.amount,
      paymentTolerance(record.currency),
      record.underpaymentToleranceBp,
    ),
    worth: { paid: payments.worth, due: record.amount, currency: record.currency },
  };
}

function judge(paid: bigint, due: bigint, unit: bigint, toleranceBp: number) {
  const isExact = paid + unit >= due;
  const isComplete = isExact || paid + unit + toleratedShortfall(due, toleranceBp) >= due;
  return { isComplete, isOverpaid: paid > due + unit, isWithinTolerance: isComplete && !isExact };
}
