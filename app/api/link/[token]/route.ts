import { withPublicCheckout } from "@/lib/api/with-public-checkout";
import { KassaError, notFound } from "@/lib/errors";
import { paymentLinkPageView } from "@/lib/payment-links/payment-link-page-view";

/**
 * GET /api/link/<token>: the payment link as its customer sees it (no uses, no money received). A link
 * that takes no visit any more answers 410 with the message its page shows.
 */
export const GET = withPublicCheckout({}, async ({ db, params }) => {
  const view = await paymentLinkPageView(db, { token: params.token ?? "" });
  if (!view) throw notFound("No such payment link.");
  if (view.message !== null) throw new KassaError("gone", view.message);
  return view;
});
