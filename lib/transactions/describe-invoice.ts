import "server-only";

import type { Executor } from "@/lib/db/client";
import { loadInvoiceById } from "@/lib/invoices/load-invoice";
import { formatAmount } from "@/lib/money";
import { formatStoredRate } from "@/lib/rates/rate";
import type { TransactionInfo } from "@/lib/schemas/transactions";
import { spreadPercent } from "./info-fields";
import { loadPaymentsAndFees } from "./load-payments-and-fees";
import { wireStatus } from "./wire-status";

const isSettledOrInFlight = (status: string) => ["confirmed", "not_confirmed"].includes(wireStatus(status));

/** transactions/info for an invoice: its payments, the exchange they became, fees and timer state. */
export async function describeInvoice(db: Executor, id: number): Promise<TransactionInfo> {
  const record = (await loadInvoiceById(db, id))!;
  const { invoice } = record;
  const { payments, fees, paymentRates } = await loadPaymentsAndFees(db, id);
  const fee = fees.get(record.currency) ?? 0n;
  const gross = invoice.creditedAmount + fee;
  const entries = [...payments];
  if (invoice.senderCurrency && invoice.senderCurrency !== record.currency && invoice.confirmedAmount > 0n) {
    entries.push({
      id,
      currency: invoice.senderCurrency,
      currency_to: record.currency,
      transaction_type: "exchange",
      type: "exchange",
      amount: formatAmount(invoice.confirmedAmount),
      amount_to: formatAmount(gross),
    });
  }
  const status = wireStatus(record.status);
  const due = invoice.senderAmount;
  return {
    id,
    type: "invoice",
    foreign_id: record.foreignId,
    end_user_reference: record.endUserReference,
    ...(record.address && {
      crypto_address: {
        id: record.address.id,
        currency: record.address.currency,
        address: record.address.address,
        foreign_id: record.foreignId,
        tag: record.address.tag || null,
      },
    }),
    ...(isSettledOrInFlight(record.status) &&
      invoice.senderCurrency && {
        currency_sent: { currency: invoice.senderCurrency, amount: formatAmount(invoice.paidAmount) },
        currency_received: {
          currency: record.currency,
          amount: formatAmount(gross),
          amount_minus_fee: formatAmount(invoice.creditedAmount),
        },
      }),
    transactions: entries,
    fees: [...fees].map(([currency, amount]) => ({
      type: "deposit",
      currency,
      amount: formatAmount(amount),
    })),
    error: status === "declined" || status === "cancelled" ? (invoice.statusReason ?? "") : "",
    status,
    additional_details: {
      invoice_status: record.status,
      status_reason: invoice.statusReason,
      title: invoice.title,
      invoice_type: invoice.type,
      amount: formatAmount(record.amount),
      currency: record.currency,
      sender_amount: due === null ? null : formatAmount(due),
      paid_amount: formatAmount(invoice.paidAmount),
      confirmed_amount: formatAmount(invoice.confirmedAmount),
      remaining_amount:
        due === null ? null : formatAmount(due > invoice.paidAmount ? due - invoice.paidAmount : 0n),
      rate: formatStoredRate(invoice.rateNumerator, invoice.rateDenominator),
      spread_percent: spreadPercent(invoice.spreadPpm),
      expires_at: invoice.expiresAt?.toISOString() ?? null,
      payments: paymentRates.map((p) => p.details),
    },
  };
}
