import { baseUrlFor } from "@/lib/api/runtime-values";
import { withSession } from "@/lib/api/with-session";
import { sessionSource } from "@/lib/audit/session-source";
import { createPaymentLink } from "@/lib/payment-links/create-payment-link";
import { toPaymentLinkResponse } from "@/lib/payment-links/to-payment-link-response";
import { createPaymentLinkRequest } from "@/lib/schemas/payment-links";

/** The dashboard's payment link form: the API's schema and engine, audited as the signed-in user. */
export const POST = withSession(
  { permission: "invoices.manage", request: createPaymentLinkRequest, successStatus: 201 },
  async ({ db, session, body, request }) => {
    const record = await createPaymentLink(db, {
      merchantId: session.merchantId,
      request: body,
      audit: sessionSource(session, request),
    });
    return { ...toPaymentLinkResponse(record, baseUrlFor(request)), token: record.link.token };
  },
);
