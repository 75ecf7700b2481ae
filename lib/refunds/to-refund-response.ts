import "server-only";

import { formatAmount } from "@/lib/money";
import type { RefundResponse } from "@/lib/schemas/refunds";
import type { RefundPreview } from "./preview-refund";
import type { RefundView } from "./read-refund";
import { refundJson, refundPreviewJson } from "./refund-json";
import { refundPath } from "./refund-token";

/** A refund as the API answers it: amounts in 8 digits; the claim link only where the caller has it. */
export function toRefundResponse(
  refund: RefundView,
  claim?: { baseUrl: string; token: string },
): RefundResponse {
  return {
    ...refundJson(refund, formatAmount),
    claim_url: claim ? `${claim.baseUrl}${refundPath(claim.token)}` : null,
  };
}

export function toRefundPreviewResponse(preview: RefundPreview, foreignId: string) {
  return { invoice_foreign_id: foreignId, ...refundPreviewJson(preview, formatAmount) };
}
