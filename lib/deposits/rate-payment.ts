import "server-only";

import type { Clock } from "@/lib/clock";
import type { Executor } from "@/lib/db/client";
import type { InvoiceRecord } from "@/lib/invoices/load-invoice";
import { invoiceSpreadPpm } from "@/lib/invoices/price-invoice";
import { lockExpiry } from "@/lib/invoices/rate-lock";
import type { Pricing } from "@/lib/rates/pricing";
import { IDENTITY_RATE, type Rate, storedRate } from "@/lib/rates/rate";
import { quote, RateUnavailableError } from "@/lib/rates/rates";
import type { CreditPart } from "./compute-credit";

/** How payments are converted: the installation's pricing (the spread, how long a rate locked without a timer holds). */
export type PaymentRateSettings = {
  pricing: Pricing;
  /** The moment a payment is seen is read from here; the system clock unless given (tests). */
  clock?: Clock;
};

/**
 * The rates that apply to one payment, fixed at the moment it is seen (DESIGN.md section 3):
 * `lockedAmount` of it at `lockedRate`, the rest at `rate` (null when no rate could be had then:
 * crediting then uses the rate of its own moment).
 */
export type PaymentRates = { lockedAmount: bigint; lockedRate: Rate | null; rate: Rate | null };

/** The rate of now from one currency into another (1:1 within one), or null when none can be had. */
export async function rateOfTheMoment(
  db: Executor,
  input: { merchantId: number; from: string; to: string; spreadPpm: number },
) {
  if (input.from === input.to) return IDENTITY_RATE;
  try {
    return (await quote(db, input)).rate;
  } catch (error) {
    if (error instanceof RateUnavailableError) return null;
    throw error;
  }
}

/**
 * The rates of a payment of `amount` to an invoice, seen at `now`, with `paidBefore` already seen
 * for it. The locked rate covers at most what remains of the invoiced amount, and only while the
 * invoice is open and its lock has not expired; everything else (an overpayment, a payment to a
 * closed invoice, a payment after the lock expired) is converted at the rate of this moment, so a
 * stale lock never credits new money.
 */
export async function rateInvoicePayment(
  db: Executor,
  input: {
    record: InvoiceRecord;
    amount: bigint;
    paidBefore: bigint;
    now: Date;
    settings: PaymentRateSettings;
  },
): Promise<PaymentRates> {
  const { record, amount, paidBefore, now, settings } = input;
  const { invoice } = record;
  const lockedRate = storedRate(invoice.rateNumerator, invoice.rateDenominator);
  const expiry = lockExpiry(record, settings.pricing.rateLockSeconds);
  const isOpen = record.status === "pending" || record.status === "processing";
  const isLive = lockedRate !== null && isOpen && expiry !== null && now < expiry;
  const room =
    invoice.senderAmount !== null && invoice.senderAmount > paidBefore
      ? invoice.senderAmount - paidBefore
      : 0n;
  const lockedAmount = isLive ? (amount < room ? amount : room) : 0n;
  const rate =
    lockedAmount === amount
      ? null
      : await rateOfTheMoment(db, {
          merchantId: record.merchantId,
          from: invoice.senderCurrency ?? record.currency,
          to: record.currency,
          spreadPpm: invoiceSpreadPpm(invoice),
        });
  return { lockedAmount, lockedRate: lockedAmount > 0n ? lockedRate : null, rate };
}

/** The rate of a payment to a permanent address: the rate of the moment into its `convert_to`. */
export async function rateAddressPayment(
  db: Executor,
  input: { merchantId: number; payCurrency: string; creditCurrency: string; settings: PaymentRateSettings },
): Promise<PaymentRates> {
  if (input.payCurrency === input.creditCurrency) return { lockedAmount: 0n, lockedRate: null, rate: null };
  const rate = await rateOfTheMoment(db, {
    merchantId: input.merchantId,
    from: input.payCurrency,
    to: input.creditCurrency,
    spreadPpm: input.settings.pricing.spreadPpm,
  });
  return { lockedAmount: 0n, lockedRate: null, rate };
}

type RecordedRates = {
  amount: bigint;
  currency: string;
  lockedAmount: bigint;
  lockedRateNumerator: bigint | null;
  lockedRateDenominator: bigint | null;
  rateNumerator: bigint | null;
  rateDenominator: bigint | null;
};

/**
 * A payment's parts at the rates recorded for it (the locked part, then the rest), into
 * `creditCurrency`. The rest converts at its recorded rate, 1:1 in its own currency, else at
 * `fallback`; null when it has none of these (crediting then quotes the rate of its moment).
 */
export function recordedParts(
  deposit: RecordedRates,
  creditCurrency: string,
  fallback: Rate | null = null,
): CreditPart[] | null {
  const parts: CreditPart[] = [];
  const lockedRate = storedRate(deposit.lockedRateNumerator, deposit.lockedRateDenominator);
  const lockedAmount = lockedRate ? deposit.lockedAmount : 0n;
  if (lockedRate && lockedAmount > 0n) parts.push({ amount: lockedAmount, rate: lockedRate });
  if (deposit.amount > lockedAmount || parts.length === 0) {
    const rate =
      storedRate(deposit.rateNumerator, deposit.rateDenominator) ??
      (deposit.currency === creditCurrency ? IDENTITY_RATE : fallback);
    if (!rate) return null;
    parts.push({ amount: deposit.amount - lockedAmount, rate });
  }
  return parts;
}

/** Whether the whole payment was covered by its invoice's locked rate. */
export function isFullyLocked(deposit: RecordedRates): boolean {
  return deposit.lockedRateNumerator !== null && deposit.lockedAmount >= deposit.amount;
}
