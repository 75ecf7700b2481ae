import "server-only";

import { formatAmountShort } from "@/lib/money";
import type { RefundPreview } from "./preview-refund";
import type { RefundView } from "./read-refund";

/** A refund as JSON (decimal strings, ISO times): the dashboard's answers, and a base for the API's. */
export function refundJson(refund: RefundView) {
  return {
    id: refund.id,
    invoice_id: refund.invoiceId,
    invoice_foreign_id: refund.invoiceForeignId,
    status: refund.status,
    currency: refund.payCurrency,
    amount: formatAmountShort(refund.owedAmount),
    amount_kind: refund.terms.amountKind,
    rate: refund.terms.rateBasis,
    network_fee: refund.terms.feePaidBy,
    currencies: refund.currencies,
    claim: refund.claim,
    payout: refund.payout && {
      id: refund.payout.id,
      status: refund.payout.status,
      amount: formatAmountShort(refund.payout.amount),
      currency: refund.payout.currency,
      txid: refund.payout.txid,
    },
    expires_at: refund.expiresAt.toISOString(),
    created_at: refund.createdAt.toISOString(),
    created_by: refund.createdBy,
  };
}

/** A preview as JSON. */
export function refundPreviewJson(preview: RefundPreview) {
  return {
    currency: preview.currency,
    owed: formatAmountShort(preview.owed),
    left: formatAmountShort(preview.left),
    amount: formatAmountShort(preview.amount),
    options: preview.options.map((option) => ({
      currency: option.currency,
      receives: formatAmountShort(option.receives),
      network_fee: formatAmountShort(option.networkFee),
      minimum: formatAmountShort(option.minimum),
      is_under_minimum: option.isUnderMinimum,
    })),
    is_under_minimum: preview.isUnderMinimum,
    alternatives: preview.alternatives && {
      larger_amount: formatAmountShort(preview.alternatives.largerAmount),
      other_currencies: preview.alternatives.otherCurrencies,
    },
  };
}
