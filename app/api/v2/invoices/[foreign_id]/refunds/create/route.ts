import { withMerchantSignature } from "@/lib/api/with-merchant-signature";
import { findInvoiceId } from "@/lib/invoices/find-invoice-id";
import { issueRefund } from "@/lib/refunds/issue-refund";
import { toRefundResponse } from "@/lib/refunds/to-refund-response";
import { getSecretBox } from "@/lib/runtime";
import { createRefundEndpoint, refundTermsOf } from "@/lib/schemas/refunds";

/** Offers the refund and e-mails the customer its link; the link is in this answer only. */
export const POST = withMerchantSignature(
  createRefundEndpoint,
  async ({ db, merchantId, params, body, publicOrigin, apiKey, clientAddress }) => {
    const baseUrl = publicOrigin();
    const { refund, token } = await issueRefund(db, {
      merchantId,
      invoiceId: await findInvoiceId(db, merchantId, params.foreign_id ?? ""),
      terms: refundTermsOf(body),
      actor: { actor: { kind: "api_key", key: apiKey }, address: clientAddress },
      box: getSecretBox(),
      mail: { baseUrl },
    });
    return toRefundResponse(refund, { baseUrl, token });
  },
);
