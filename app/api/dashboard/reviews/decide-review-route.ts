import { pathId } from "@/lib/api/path-id";
import { withSession } from "@/lib/api/with-session";
import { sessionSource } from "@/lib/audit/session-source";
import { confirmUser } from "@/lib/auth/confirm-user";
import { decideReview, type ReviewDecision } from "@/lib/compliance/decide-review";
import { getConfig, getSecretBox } from "@/lib/runtime";
import { reviewDecisionRequest } from "@/lib/schemas/compliance";

/**
 * The handler of one decision on a held payment (release and reject differ only in it): the second
 * factor first (throttled per user), then the decision for the session's merchant, taken once.
 */
export function decideReviewRoute(decision: ReviewDecision) {
  return withSession(
    { permission: "compliance.review", request: reviewDecisionRequest },
    async ({ db, session, body, params, request }) => {
      const reviewId = pathId(params, "No such review.");
      await confirmUser(db, { userId: session.userId, ask: "second_factor", box: getSecretBox(), ...body });
      return decideReview(db, {
        merchantId: session.merchantId,
        reviewId,
        userId: session.userId,
        decision,
        audit: sessionSource(session, request),
        spreadPpm: getConfig().spreadPpm,
      });
    },
  );
}
