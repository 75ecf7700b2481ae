import { pathId } from "@/lib/api/path-id";
import { withSession } from "@/lib/api/with-session";
import { sessionSource } from "@/lib/audit/session-source";
import { decidePayoutBatch } from "@/lib/payout-batches/decide-payout-batch";
import { withdrawalDecisionRequest } from "@/lib/schemas/withdrawals";
import type { Decision } from "@/lib/withdrawals/decide-withdrawal";

/** One decision on a whole bulk payout waiting for approval, confirmed as a single payout's is. */
export function decidePayoutBatchRoute(decision: Decision) {
  return withSession(
    {
      action: decision === "approve" ? "payout.approve" : "payout.decline",
      request: withdrawalDecisionRequest,
    },
    async ({ db, session, params, request }) => {
      const batchId = pathId(params, "No such bulk payout.");
      return decidePayoutBatch(db, {
        merchantId: session.merchantId,
        batchId,
        userId: session.userId,
        decision,
        audit: sessionSource(session, request),
      });
    },
  );
}
