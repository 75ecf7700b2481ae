import { pathId } from "@/lib/api/path-id";
import { baseUrlFor } from "@/lib/api/runtime-values";
import { withSession } from "@/lib/api/with-session";
import { sessionSource } from "@/lib/audit/session-source";
import { deactivatePaymentLink } from "@/lib/payment-links/deactivate-payment-link";
import { toPaymentLinkResponse } from "@/lib/payment-links/to-payment-link-response";

/** The link page's Deactivate: confirmed (step-up), audited, final. */
export const POST = withSession(
  { action: "payment_link.deactivate" },
  async ({ db, session, params, request }) =>
    toPaymentLinkResponse(
      await deactivatePaymentLink(db, {
        merchantId: session.merchantId,
        id: pathId(params, "No such payment link."),
        audit: sessionSource(session, request),
      }),
      baseUrlFor(request),
    ),
);
