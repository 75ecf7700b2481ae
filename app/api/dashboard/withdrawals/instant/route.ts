import { withSession } from "@/lib/api/with-session";
import { sessionSource } from "@/lib/audit/session-source";
import { getConfig } from "@/lib/runtime";
import { instantWithdrawalRequest } from "@/lib/schemas/withdrawals";
import { acceptPayout } from "@/lib/withdrawals/accept-payout";
import { instantWithdrawalInput } from "@/lib/withdrawals/from-request";

export const POST = withSession(
  { action: "payout.instant", request: instantWithdrawalRequest, successStatus: 201 },
  ({ db, session, body, request }) =>
    acceptPayout(db, {
      ...instantWithdrawalInput(session.merchantId, body, getConfig().pricing),
      createdByUserId: session.userId,
      audit: sessionSource(session, request),
      approvalSeconds: getConfig().withdrawalApprovalSeconds,
    }),
);
