import "server-only";

import { formatAmountShort } from "@/lib/money";

/** How amounts are written: trimmed for the dashboard, the API's 8 digits (formatAmount) for the API. */
type Format = (units: bigint) => string;

import type { RefundPreview } from "./preview-refund";
import type { RefundView } from "./read-refund";

/** A refund as JSON (decimal strings, ISO times): the dashboard's answers, and a base for the API's. */
export function refundJson(refund: RefundView, format: Format = formatAmountShort) {
  return {
    id: refund.id,
    invoice_id: refund.invoiceId,
    invoice_foreign_id: refund.invoiceForeignId,
    status: refund.status,
    currency: refund.payCurrency,
    amount: format(refund.owedAmount),
    amount_kind: refund.terms.amountKind,
    rate: refund.terms.rateBasis,
    network_fee: refund.terms.feePaidBy,
    currencies: refund.currencies,
    claim: refund.claim,
    payout: refund.payout && {
      id: refund.payout.id,
      status: refund.payout.status,
      amount: format(refund.payout.amount),
      currency: refund.payout.currency,
      txid: refund.payout.txid,
    },
    expires_at: refund.expiresAt.toISOString(),
    created_at: refund.createdAt.toISOString(),
    created_by: refund.createdBy,
  };
}

/** A preview as JSON. */
export function refundPreviewJson(preview: RefundPreview, format: Format = formatAmountShort) {
  return {
    currency: preview.currency,
    owed: format(preview.owed),
    left: format(preview.left),
    amount: format(preview.amount),
    options: preview.options.map((option) => ({
      currency: option.currency,
      receives: format(option.receives),
      network_fee: format(option.networkFee),
      minimum: format(option.minimum),
      is_under_minimum: option.isUnderMinimum,
      debit: option.debit === null ? null : format(option.debit),
      is_insufficient: option.isInsufficient,
    })),
    is_under_minimum: preview.isUnderMinimum,
    alternatives: preview.alternatives && {
      larger_amount: format(preview.alternatives.largerAmount),
      other_currencies: preview.alternatives.otherCurrencies,
    },
    balance: preview.balance && {
      currency: preview.balance.currency,
      available: format(preview.balance.available),
    },
  };
}
