import "server-only";

import type { Executor } from "@/lib/db/client";
import { listInvoiceDeposits } from "@/lib/invoices/list-invoice-deposits";
import { loadInvoiceById } from "@/lib/invoices/load-invoice";
import { loadInvoiceResolution } from "@/lib/invoices/resolve-invoice-exception";
import { formatAmount } from "@/lib/money";
import { formatStoredRate } from "@/lib/rates/rate";
import { spreadPercent, type TransactionEntry } from "./info-fields";
import { invoiceAmounts } from "./invoice-amounts";
import { invoiceError } from "./invoice-error";
import { listInvoiceExchanges } from "./list-invoice-exchanges";
import { loadPaymentsAndFees } from "./load-payments-and-fees";

/**
 * What both faces of an invoice on the wire are made of (transactions/info, lib/transactions/describe-invoice.ts,
 * and the invoice callback, lib/callbacks/build-invoice-callback.ts): its payments, the exchange they
 * became, its amounts, fees, the public error text and Kassa's additional details. Each face adds its
 * own status and shape.
 */
export async function loadInvoiceWire(db: Executor, id: number) {
  const record = (await loadInvoiceById(db, id))!;
  const { invoice } = record;
  const { payments, fees, paymentRates } = await loadPaymentsAndFees(db, id);
  const deposits = await listInvoiceDeposits(db, id);
  const transactions: TransactionEntry[] = [...payments, ...listInvoiceExchanges(record, deposits)];
  const due = invoice.senderAmount;
  const amounts = await invoiceAmounts(db, record, deposits);
  const resolution = await loadInvoiceResolution(db, id);
  return {
    record,
    /** The invoice's deposit address; `convert_to` when the payments convert into another currency. */
    cryptoAddress: record.address && {
      id: record.address.id,
      currency: record.address.currency,
      ...(record.address.currency !== record.currency && { convert_to: record.currency }),
      address: record.address.address,
      tag: record.address.tag || null,
    },
    amounts,
    transactions,
    // The public API names an invoice's deposit fee `fee_crypto_deposit`.
    fees: [...fees].map(([currency, amount]) => ({
      type: "fee_crypto_deposit",
      currency,
      amount: formatAmount(amount),
    })),
    error: invoiceError(record.status, invoice.statusReason),
    additionalDetails: {
      invoice_status: record.status,
      status_reason: invoice.statusReason,
      title: invoice.title,
      invoice_type: invoice.type,
      amount: formatAmount(record.amount),
      currency: record.currency,
      sender_amount: due === null ? null : formatAmount(due),
      paid_amount: formatAmount(invoice.paidAmount),
      confirmed_amount: formatAmount(invoice.confirmedAmount),
      credited_amount: formatAmount(invoice.creditedAmount),
      // What the customer still owes, as `currency_sent` says: a payment to an address shown before a
      // switch of coins is not in `paid_amount` (another coin), but it paid for part of the invoice.
      remaining_amount: amounts?.currency_sent.remaining_amount ?? null,
      rate: formatStoredRate(invoice.rateNumerator, invoice.rateDenominator),
      spread_percent: spreadPercent(invoice.spreadPpm),
      expires_at: invoice.expiresAt?.toISOString() ?? null,
      payments: paymentRates.map((p) => p.details),
      // Set once the merchant closed what the invoice owed without a refund ("Mark resolved"); null before.
      resolution: resolution && {
        reason: resolution.reason,
        note: resolution.note,
        resolved_at: resolution.resolvedAt.toISOString(),
      },
    },
  };
}
