import "server-only";

import { formatAmount } from "@/lib/money";
import type { RefundResponse, RefundTermsRequest } from "@/lib/schemas/refunds";
import type { RefundPreview } from "./preview-refund";
import type { RefundView } from "./read-refund";
import type { RefundTerms } from "./refund-terms";
import { refundPath } from "./refund-token";

const iso = (date: Date | null) => date?.toISOString() ?? null;

/** The API's terms as the engine takes them; a custom amount is already exact ledger units. */
export function toRefundTerms(request: RefundTermsRequest): RefundTerms {
  return {
    amount:
      request.amount_kind === "custom"
        ? { kind: "custom", units: request.amount! }
        : { kind: request.amount_kind },
    rateBasis: request.rate_basis,
    feePaidBy: request.fee_paid_by,
    currencies: request.currencies,
    expiresInSeconds: request.expires_in,
  };
}

/** A refund on the wire; `claim` (base URL and token) only in the answer that created it. */
export function toRefundResponse(
  refund: RefundView,
  claim?: { baseUrl: string; token: string },
): RefundResponse {
  return {
    id: refund.id,
    invoice_foreign_id: refund.invoiceForeignId,
    status: refund.status,
    currency: refund.payCurrency,
    amount: formatAmount(refund.owedAmount),
    amount_kind: refund.terms.amountKind,
    rate_basis: refund.terms.rateBasis,
    fee_paid_by: refund.terms.feePaidBy,
    currencies: refund.currencies,
    claim_url: claim ? `${claim.baseUrl}${refundPath(claim.token)}` : null,
    claim: refund.claim,
    payout: refund.payout && { ...refund.payout, amount: formatAmount(refund.payout.amount) },
    expires_at: refund.expiresAt.toISOString(),
    created_at: refund.createdAt.toISOString(),
    claimed_at: iso(refund.claimedAt),
    ended_at: iso(refund.endedAt),
  };
}

export function toRefundPreviewResponse(preview: RefundPreview, foreignId: string) {
  return {
    invoice_foreign_id: foreignId,
    currency: preview.currency,
    owed: formatAmount(preview.owed),
    left: formatAmount(preview.left),
    amount: formatAmount(preview.amount),
    options: preview.options.map((option) => ({
      currency: option.currency,
      receives: formatAmount(option.receives),
      network_fee: formatAmount(option.networkFee),
      minimum: formatAmount(option.minimum),
      is_under_minimum: option.isUnderMinimum,
    })),
    is_under_minimum: preview.isUnderMinimum,
    alternatives: preview.alternatives && {
      larger_amount: formatAmount(preview.alternatives.largerAmount),
      other_currencies: preview.alternatives.otherCurrencies,
    },
  };
}
