import { withMerchantSignature } from "@/lib/api/with-merchant-signature";
import { listPaymentLinks } from "@/lib/payment-links/list-payment-links";
import { toPaymentLinkResponse } from "@/lib/payment-links/to-payment-link-response";
import { listPaymentLinksEndpoint } from "@/lib/schemas/payment-links";

export const POST = withMerchantSignature(
  listPaymentLinksEndpoint,
  async ({ db, merchantId, body, publicOrigin }) => {
    const page = await listPaymentLinks(db, { merchantId, limit: body.limit, cursor: body.cursor });
    const baseUrl = publicOrigin();
    return {
      payment_links: page.links.map((record) => toPaymentLinkResponse(record, baseUrl)),
      next_cursor: page.nextCursor,
    };
  },
);
