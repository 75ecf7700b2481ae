import { baseUrlFor, invoiceSettings } from "@/lib/api/runtime-values";
import { withPublicCheckout } from "@/lib/api/with-public-checkout";
import { checkoutUrl } from "@/lib/invoices/to-invoice-response";
import { startPaymentLink } from "@/lib/payment-links/start-payment-link";
import { assertVisitAllowed } from "@/lib/payment-links/visit-rate-limit";
import { startPaymentLinkRequest } from "@/lib/schemas/payment-links";

/**
 * POST /api/link/<token>/start: a customer starts paying the link with their amount (when the link
 * has none) and their details; answers 201 with the new invoice's checkout (`url`, `token`), where the
 * page sends them. 410 when the link takes no visit any more; 400 with field errors otherwise.
 */
export const POST = withPublicCheckout(
  { request: startPaymentLinkRequest, successStatus: 201 },
  async ({ db, params, body, request }) => {
    assertVisitAllowed(request);
    const invoice = await startPaymentLink(db, {
      token: params.token ?? "",
      request: body,
      settings: invoiceSettings(),
    });
    return {
      id: invoice.id,
      token: invoice.invoice.token,
      url: checkoutUrl(baseUrlFor(request), invoice.invoice.token),
    };
  },
);
