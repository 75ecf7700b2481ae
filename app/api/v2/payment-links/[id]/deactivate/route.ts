import { pathId } from "@/lib/api/path-id";
import { withMerchantSignature } from "@/lib/api/with-merchant-signature";
import { deactivatePaymentLink } from "@/lib/payment-links/deactivate-payment-link";
import { toPaymentLinkResponse } from "@/lib/payment-links/to-payment-link-response";
import { deactivatePaymentLinkEndpoint } from "@/lib/schemas/payment-links";

/** Turns the link off for good (audited); another merchant's link, or a malformed id, is a 404. */
export const POST = withMerchantSignature(
  deactivatePaymentLinkEndpoint,
  async ({ db, merchantId, params, apiKey, clientAddress, publicOrigin }) =>
    toPaymentLinkResponse(
      await deactivatePaymentLink(db, {
        merchantId,
        id: pathId(params, "No such payment link."),
        audit: { actor: { kind: "api_key", key: apiKey }, address: clientAddress },
      }),
      publicOrigin(),
    ),
);
