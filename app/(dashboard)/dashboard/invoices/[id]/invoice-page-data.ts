import "server-only";

import { invoiceExceptions } from "@/components/dashboard/invoice-status";
import type { LatePayment } from "@/components/dashboard/invoice-timeline";
import { amountsDue } from "@/lib/checkout/amounts-due";
import type { Db } from "@/lib/db/client";
import { lateCredit } from "@/lib/invoices/late-credit";
import { listInvoiceDeposits } from "@/lib/invoices/list-invoice-deposits";
import { listOpenExceptions } from "@/lib/invoices/list-open-exceptions";
import { listOtherCoinCredits } from "@/lib/invoices/list-other-coin-credits";
import { loadInvoiceById } from "@/lib/invoices/load-invoice";
import { loadInvoiceResolution } from "@/lib/invoices/resolve-invoice-exception";
import { loadPaymentLink } from "@/lib/payment-links/load-payment-link";
import { owedBack } from "@/lib/refunds/owed-back";
import { listInvoiceRefundClaims } from "@/lib/refunds/read-refund";
import { listInvoiceExchanges } from "@/lib/transactions/list-invoice-exchanges";
import { transactionDetail } from "@/lib/transactions/transaction-detail";
import { listRefunds } from "@/lib/withdrawals/list-refunds";

/** Everything the invoice page shows, or undefined when the invoice is not this merchant's. */
export async function invoicePageData(db: Db, input: { merchantId: number; id: number }) {
  const record = await loadInvoiceById(db, input.id);
  if (!record || record.merchantId !== input.merchantId) return undefined;
  const detail = await transactionDetail(db, input.merchantId, input.id);
  if (!detail) return undefined;
  const deposits = await listInvoiceDeposits(db, input.id);
  const late: LatePayment[] = deposits
    .filter((row) => row.isLate)
    .map((row) => ({
      id: row.id,
      amount: row.amount,
      currency: row.currency,
      status: row.status,
      seenAt: row.createdAt,
      creditedAt: row.creditedAt,
    }));
  const reason = record.invoice.statusReason;
  return {
    record,
    detail,
    owed: await amountsDue(db, record, { deposits }),
    // What a refund may send back: confirmed money only (lib/withdrawals/assert-refund-fits.ts agrees).
    // Only an overpaid confirmed invoice owes an excess back (lib/invoices/owed-refund.ts), so only
    // then is it worked out.
    owedBack:
      record.status === "confirmed" && reason === "overpaid"
        ? await amountsDue(db, record, { isCreditedOnly: true, deposits })
        : null,
    /** What payments after the invoice closed credited in the coin paid: owed back when nothing else is. */
    lateCredit: await lateCredit(db, record),
    /** Money paid to an address shown before a switch of coins: a short invoice owes it back apart. */
    otherCoinCredits: await listOtherCoinCredits(db, record),
    /** Per coin paid (other than the invoice currency): its sum and its gross worth, as the API's exchange entries. */
    exchanges: listInvoiceExchanges(record, deposits),
    refunds: await listRefunds(db, { merchantId: input.merchantId, invoiceId: input.id }),
    /** Refunds offered to the customer to claim (lib/refunds), and what no refund covers yet. */
    refundClaims: await listInvoiceRefundClaims(db, { merchantId: input.merchantId, invoiceId: input.id }),
    refundLeft: await owedBack(db, record),
    exceptions: invoiceExceptions({ status: record.status, reason, hasLatePayment: late.length > 0 }),
    hasLatePayment: late.length > 0,
    /** Payments that reached the invoice after it closed, for the timeline. */
    latePayments: late,
    /** What the invoice owes its customer: "Mark resolved" is offered while this is not empty and it is not resolved. */
    openExceptions: await listOpenExceptions(db, record),
    resolution: await loadInvoiceResolution(db, record.id),
    /** The payment link a customer started this invoice from, if any. */
    paymentLink:
      record.invoice.paymentLinkId === null
        ? null
        : ((await loadPaymentLink(db, { merchantId: input.merchantId, id: record.invoice.paymentLinkId }))
            ?.link ?? null),
  };
}
