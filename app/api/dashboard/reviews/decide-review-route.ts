import { pathId } from "@/lib/api/path-id";
import { withSession } from "@/lib/api/with-session";
import { sessionSource } from "@/lib/audit/session-source";
import { decideReview, type ReviewDecision } from "@/lib/compliance/decide-review";
import { getConfig } from "@/lib/runtime";
import { reviewDecisionRequest } from "@/lib/schemas/compliance";

/**
 * The handler of one decision on a held payment (release and reject differ only in it), confirmed
 * by the session's step-up window: the decision for the session's merchant, taken once.
 */
export function decideReviewRoute(decision: ReviewDecision) {
  return withSession(
    { action: decision === "release" ? "review.release" : "review.reject", request: reviewDecisionRequest },
    async ({ db, session, params, request }) => {
      const reviewId = pathId(params, "No such review.");
      return decideReview(db, {
        merchantId: session.merchantId,
        reviewId,
        userId: session.userId,
        decision,
        audit: sessionSource(session, request),
        pricing: getConfig().pricing,
      });
    },
  );
}
