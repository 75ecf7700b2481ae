import { pathId } from "@/lib/api/path-id";
import { withSession } from "@/lib/api/with-session";
import { previewRefund } from "@/lib/refunds/preview-refund";
import { refundPreviewJson } from "@/lib/refunds/refund-json";
import { getConfig } from "@/lib/runtime";
import { refundTermsOf, refundTermsRequest } from "@/lib/schemas/refunds";

/** What a refund on these terms would send, per coin, and whether it is under a network's minimum. */
export const POST = withSession(
  { permission: "payouts.create", request: refundTermsRequest },
  async ({ db, session, body, params }) =>
    refundPreviewJson(
      await previewRefund(db, {
        merchantId: session.merchantId,
        invoiceId: pathId(params, "No such invoice."),
        terms: refundTermsOf(body),
        pricing: getConfig().pricing,
      }),
    ),
);
