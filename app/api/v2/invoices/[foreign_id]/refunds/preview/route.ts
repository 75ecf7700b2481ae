import { invoiceSettings } from "@/lib/api/runtime-values";
import { withMerchantSignature } from "@/lib/api/with-merchant-signature";
import { findInvoiceId } from "@/lib/invoices/find-invoice-id";
import { previewRefund } from "@/lib/refunds/preview-refund";
import { toRefundPreviewResponse } from "@/lib/refunds/to-refund-response";
import { previewRefundEndpoint, refundTermsOf } from "@/lib/schemas/refunds";

export const POST = withMerchantSignature(previewRefundEndpoint, async ({ db, merchantId, params, body }) => {
  const foreignId = params.foreign_id ?? "";
  const preview = await previewRefund(db, {
    merchantId,
    invoiceId: await findInvoiceId(db, merchantId, foreignId),
    terms: refundTermsOf(body),
    pricing: invoiceSettings().pricing,
  });
  return toRefundPreviewResponse(preview, foreignId);
});
