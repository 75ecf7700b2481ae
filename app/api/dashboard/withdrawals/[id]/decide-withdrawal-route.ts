import { pathId } from "@/lib/api/path-id";
import { withSession } from "@/lib/api/with-session";
import { sessionSource } from "@/lib/audit/session-source";
import { confirmUser } from "@/lib/auth/confirm-user";
import { getSecretBox } from "@/lib/runtime";
import { withdrawalDecisionRequest } from "@/lib/schemas/withdrawals";
import { type Decision, decideWithdrawal } from "@/lib/withdrawals/decide-withdrawal";

/**
 * The handler of one decision on a pending withdrawal (approve and decline differ only in it): asks
 * for the second factor first (lib/auth/confirm-user.ts counts wrong answers per user), then records the decision for the session's merchant.
 */
export function decideWithdrawalRoute(decision: Decision) {
  return withSession(
    { permission: "payouts.approve", request: withdrawalDecisionRequest },
    async ({ db, session, body, params, request }) => {
      const withdrawalId = pathId(params, "No such withdrawal.");
      await confirmUser(db, { userId: session.userId, ask: "second_factor", box: getSecretBox(), ...body });
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
