import { invoiceSettings } from "@/lib/api/runtime-values";
import { withPublicCheckout } from "@/lib/api/with-public-checkout";
import { notFound } from "@/lib/errors";
import { claimRefund } from "@/lib/refunds/claim-refund";
import { refundPageView } from "@/lib/refunds/refund-page-view";
import { getConfig } from "@/lib/runtime";
import { claimRefundRequest } from "@/lib/schemas/refunds";
import { hasUnstorableText } from "@/lib/unstorable-text";

const NO_SUCH_REFUND = "This refund link is not valid. Check that it was copied whole.";

/** GET /api/refund/<token>: the refund page's view, polled while its payout is on its way. */
export const GET = withPublicCheckout({}, async ({ db, params }) => {
  const token = params.token ?? "";
  const view = hasUnstorableText(token) ? undefined : await refundPageView(db, token);
  if (!view) throw notFound(NO_SUCH_REFUND);
  return view;
});

/**
 * POST /api/refund/<token>: the customer claims the refund (coin, address, tag); answered with the
 * page's view, the payout now under way. A refused claim is a 4xx saying what to change.
 */
export const POST = withPublicCheckout({ request: claimRefundRequest }, async ({ db, params, body }) => {
  const token = params.token ?? "";
  if (hasUnstorableText(token)) throw notFound(NO_SUCH_REFUND);
  await claimRefund(db, {
    token,
    currency: body.currency,
    address: body.address,
    tag: body.tag,
    pricing: invoiceSettings().pricing,
    approvalSeconds: getConfig().withdrawalApprovalSeconds,
  });
  return (await refundPageView(db, token))!;
});
