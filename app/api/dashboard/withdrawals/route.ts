import { withSession } from "@/lib/api/with-session";
import { sessionSource } from "@/lib/audit/session-source";
import { getConfig } from "@/lib/runtime";
import { payoutRequest } from "@/lib/schemas/dashboard";
import { acceptPayout } from "@/lib/withdrawals/accept-payout";
import { withdrawalInput } from "@/lib/withdrawals/from-request";

/** The payout form: the same schema and engine as POST /api/v2/withdrawal/crypto, plus refund_of. */
export const POST = withSession(
  { action: "payout.create", request: payoutRequest, successStatus: 201 },
  ({ db, session, body, request }) =>
    acceptPayout(db, {
      ...withdrawalInput(session.merchantId, body, getConfig().pricing),
      createdByUserId: session.userId,
      refundOf: body.refund_of,
      audit: sessionSource(session, request),
      approvalSeconds: getConfig().withdrawalApprovalSeconds,
    }),
);
