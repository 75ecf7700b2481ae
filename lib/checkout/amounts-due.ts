import "server-only";

import { getCurrency } from "@/lib/currencies/registry";
import type { Executor } from "@/lib/db/client";
import { judgePayments, paymentsWorth } from "@/lib/invoices/judge-payments";
import type { InvoiceDeposit } from "@/lib/invoices/list-invoice-deposits";
import type { InvoiceRecord } from "@/lib/invoices/load-invoice";
import { invoiceSpreadPpm, paymentTolerance } from "@/lib/invoices/price-invoice";
import { convert, invert } from "@/lib/rates/rate";
import { quote, RateUnavailableError } from "@/lib/rates/rates";

export type AmountsDue = {
  remaining: bigint;
  overpaid: bigint;
  /**
   * The same shortfall or excess in the invoice currency, when the invoice is settled by value (a
   * payment converted at a later rate or came in another coin after a switch): what the dashboard
   * shows for an invoice paid in two coins, where no one coin's sum says how short it is.
   */
  inInvoiceCurrency?: { remaining: bigint; overpaid: bigint };
};

/**
 * What the customer still owes, or overpaid, in the pay currency. Under the locked rate: the amount due
 * less what arrived. If part converted at a later rate, by value (as lib/invoices/judge-payments.ts): the
 * invoice amount their worth leaves uncovered, at the current rate, rounded up; unconfirmed payments
 * count at the rates recorded when seen.
 */
export async function amountsDue(
  db: Executor,
  record: InvoiceRecord,
  options: {
    /**
     * Count only credited (confirmed) payments: what the invoice owes back must not include money
     * still unconfirmed or held for compliance review, which may never be the merchant's.
     */
    isCreditedOnly?: boolean;
    /** The invoice's deposits, any status, when the caller read them already (one query less). */
    deposits?: InvoiceDeposit[];
  } = {},
): Promise<AmountsDue | null> {
  const { invoice } = record;
  const due = invoice.senderAmount;
  if (due === null || invoice.senderCurrency === null) return null;
  const paid = options.isCreditedOnly ? invoice.confirmedAmount : invoice.paidAmount;
  const inPayCurrency = {
    remaining: due > paid ? due - paid : 0n,
    overpaid: paid > due ? paid - due : 0n,
  };
  // Nothing arrived yet; payments to an address shown before a switch of coins are not in `paid`,
  // but one of them moves the invoice out of its first `pending` (it is processing, or owes a rest).
  const isFirstWait = record.status === "pending" && invoice.statusReason !== "awaiting_remainder";
  if (paid === 0n && isFirstWait) return inPayCurrency;
  let rate: Awaited<ReturnType<typeof quote>>["rate"];
  try {
    ({ rate } = await quote(db, {
      merchantId: invoice.merchantId,
      from: invoice.senderCurrency,
      to: record.currency,
      spreadPpm: invoiceSpreadPpm(invoice),
    }));
  } catch (error) {
    if (error instanceof RateUnavailableError) return inPayCurrency;
    throw error;
  }
  const statuses: ("seen" | "credited")[] = options.isCreditedOnly ? ["credited"] : ["seen", "credited"];
  const payments = await paymentsWorth(db, record, { statuses, fallback: rate, deposits: options.deposits });
  const { worth } = judgePayments(record, payments, paid);
  if (!worth) return inPayCurrency;
  const pay = getCurrency(invoice.senderCurrency);
  const tolerance = paymentTolerance(record.currency);
  if (worth.paid + tolerance >= worth.due) {
    const extra = worth.paid - worth.due;
    const isOver = extra > tolerance;
    return {
      remaining: 0n,
      overpaid: isOver ? convert(extra, invert(rate), "down", pay.precision) : 0n,
      inInvoiceCurrency: { remaining: 0n, overpaid: isOver ? extra : 0n },
    };
  }
  return {
    remaining: convert(worth.due - worth.paid, invert(rate), "up", pay.precision),
    overpaid: 0n,
    inInvoiceCurrency: { remaining: worth.due - worth.paid, overpaid: 0n },
  };
}
