import { pathId } from "@/lib/api/path-id";
import { withSession } from "@/lib/api/with-session";
import { sessionSource } from "@/lib/audit/session-source";
import { withdrawalDecisionRequest } from "@/lib/schemas/withdrawals";
import { type Decision, decideWithdrawal } from "@/lib/withdrawals/decide-withdrawal";

/**
 * The handler of one decision on a pending withdrawal (approve and decline differ only in it),
 * confirmed by the session's step-up window (lib/team/sensitive-actions.ts): records the decision
 * for the session's merchant.
 */
export function decideWithdrawalRoute(decision: Decision) {
  return withSession(
    {
      action: decision === "approve" ? "payout.approve" : "payout.decline",
      request: withdrawalDecisionRequest,
    },
    async ({ db, session, params, request }) => {
      const withdrawalId = pathId(params, "No such withdrawal.");
      const record = await decideWithdrawal(db, {
        merchantId: session.merchantId,
        withdrawalId,
        userId: session.userId,
        decision,
        audit: sessionSource(session, request),
      });
      return { id: record.id, status: record.status };
    },
  );
}
