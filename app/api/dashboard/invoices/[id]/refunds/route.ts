import { pathId } from "@/lib/api/path-id";
import { baseUrlFor } from "@/lib/api/runtime-values";
import { withSession } from "@/lib/api/with-session";
import { sessionSource } from "@/lib/audit/session-source";
import { issueRefund } from "@/lib/refunds/issue-refund";
import { refundJson } from "@/lib/refunds/refund-json";
import { refundPath } from "@/lib/refunds/refund-token";
import { getSecretBox } from "@/lib/runtime";
import { refundTermsOf, refundTermsRequest } from "@/lib/schemas/refunds";

/**
 * "Issue refund" on the invoice page: a confirmed, audited action. The customer is e-mailed the
 * link; the answer carries it too, this once (only its hash is kept), for the merchant to pass on.
 */
export const POST = withSession(
  { action: "refund.issue", request: refundTermsRequest, successStatus: 201 },
  async ({ db, session, body, params, request }) => {
    const baseUrl = baseUrlFor(request);
    const { refund, token } = await issueRefund(db, {
      merchantId: session.merchantId,
      invoiceId: pathId(params, "No such invoice."),
      terms: refundTermsOf(body),
      actor: sessionSource(session, request),
      box: getSecretBox(),
      mail: { baseUrl },
    });
    return { ...refundJson(refund), link: `${baseUrl}${refundPath(token)}` };
  },
);
