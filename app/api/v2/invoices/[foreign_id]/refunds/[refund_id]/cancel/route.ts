import { pathId } from "@/lib/api/path-id";
import { withMerchantSignature } from "@/lib/api/with-merchant-signature";
import { notFound } from "@/lib/errors";
import { cancelRefund } from "@/lib/refunds/cancel-refund";
import { readRefund } from "@/lib/refunds/read-refund";
import { toRefundResponse } from "@/lib/refunds/to-refund-response";
import { cancelRefundEndpoint } from "@/lib/schemas/refunds";

/** Cancels an unclaimed refund of the invoice the path names; another invoice's refund is a 404. */
export const POST = withMerchantSignature(
  cancelRefundEndpoint,
  async ({ db, merchantId, params, apiKey, clientAddress }) => {
    const missing = "No such refund.";
    const refund = await readRefund(db, { merchantId, id: pathId(params, missing, "refund_id") });
    if (!refund || refund.invoiceForeignId !== params.foreign_id) throw notFound(missing);
    const cancelled = await cancelRefund(db, {
      merchantId,
      refundId: refund.id,
      actor: { actor: { kind: "api_key", key: apiKey }, address: clientAddress },
    });
    return toRefundResponse(cancelled);
  },
);
