import "server-only";

import { amountsDue } from "@/lib/checkout/amounts-due";
import type { Executor } from "@/lib/db/client";
import { computeCredit } from "@/lib/deposits/compute-credit";
import { paymentsWorth } from "@/lib/invoices/judge-payments";
import type { InvoiceDeposit } from "@/lib/invoices/list-invoice-deposits";
import type { InvoiceRecord } from "@/lib/invoices/load-invoice";
import { formatAmount } from "@/lib/money";
import { IDENTITY_RATE, storedRate } from "@/lib/rates/rate";

export type InvoiceAmounts = {
  currency_sent: { currency: string; amount: string; remaining_amount: string };
  currency_received: { currency: string; amount: string; amount_minus_fee: string };
};

/**
 * An invoice's `currency_sent` (`amount`: `sender_amount`; `remaining_amount`: what is still owed) and
 * `currency_received` (in the invoice currency, before and after the deposit fee: what was credited for
 * confirmed payments, and will be for unconfirmed ones at their fixed rates; before any payment the invoice
 * amount), once the pay currency is fixed, else null. A `processing` callback thus says what is coming.
 */
export async function invoiceAmounts(
  db: Executor,
  record: InvoiceRecord,
  /** The invoice's deposits, any status (lib/invoices/list-invoice-deposits.ts). */
  deposits: InvoiceDeposit[],
): Promise<InvoiceAmounts | null> {
  const { invoice } = record;
  if (invoice.senderCurrency === null || invoice.senderAmount === null) return null;
  const owed = await amountsDue(db, record, { deposits });
  // A payment to an address shown before a switch of coins is not in `paidAmount` (another coin), but
  // it moved the invoice on from waiting for its first payment.
  const isFirstWait = record.status === "pending" && invoice.statusReason !== "awaiting_remainder";
  const payments =
    invoice.paidAmount > 0n || !isFirstWait
      ? await paymentsWorth(db, record, {
          statuses: ["seen", "credited"],
          fallback: storedRate(invoice.rateNumerator, invoice.rateDenominator),
          deposits,
        })
      : null;
  const received = payments && payments.count > 0 ? payments : null;
  const expected = computeCredit({
    parts: [{ amount: record.amount, rate: IDENTITY_RATE }],
    payCurrency: invoice.senderCurrency,
    creditCurrency: record.currency,
  });
  // An exact payment still confirming brings the invoice amount, as the public API reports it (35 for
  // a 35 EUR invoice): the amount due was rounded up to the coin's precision, and that rounding shows
  // only once the payment is credited, at what the ledger books.
  const isExactUnconfirmed =
    received !== null &&
    record.status === "processing" &&
    invoice.confirmedAmount === 0n &&
    invoice.paidAmount === invoice.senderAmount &&
    received.isAllLocked &&
    !received.hasOtherCurrency;
  const reported = received && !isExactUnconfirmed ? received : null;
  return {
    currency_sent: {
      currency: invoice.senderCurrency,
      amount: formatAmount(invoice.senderAmount),
      remaining_amount: formatAmount(owed?.remaining ?? 0n),
    },
    currency_received: {
      currency: record.currency,
      amount: formatAmount(reported ? reported.worth : expected.gross),
      amount_minus_fee: formatAmount(reported ? reported.net : expected.net),
    },
  };
}
