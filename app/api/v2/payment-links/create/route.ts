import { withMerchantSignature } from "@/lib/api/with-merchant-signature";
import { createPaymentLink } from "@/lib/payment-links/create-payment-link";
import { toPaymentLinkResponse } from "@/lib/payment-links/to-payment-link-response";
import { createPaymentLinkEndpoint } from "@/lib/schemas/payment-links";

/** A new payment link; its key signs the callbacks of the invoices customers start from it. */
export const POST = withMerchantSignature(
  createPaymentLinkEndpoint,
  async ({ db, merchantId, apiKeyId, apiKey, clientAddress, body, publicOrigin }) =>
    toPaymentLinkResponse(
      await createPaymentLink(db, {
        merchantId,
        apiKeyId,
        request: body,
        audit: { actor: { kind: "api_key", key: apiKey }, address: clientAddress },
      }),
      publicOrigin(),
    ),
);
