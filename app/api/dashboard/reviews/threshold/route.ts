import { withSession } from "@/lib/api/with-session";
import { sessionSource } from "@/lib/audit/session-source";
import { setReviewThreshold } from "@/lib/compliance/set-review-threshold";
import { reviewThresholdRequest } from "@/lib/schemas/compliance";

/** Sets the score from which incoming payments wait for review; confirmed (it loosens compliance). */
export const POST = withSession(
  { action: "review.threshold", request: reviewThresholdRequest },
  async ({ db, session, body, request }) => {
    return {
      review_threshold: await setReviewThreshold(db, {
        merchantId: session.merchantId,
        threshold: body.threshold,
        audit: sessionSource(session, request),
      }),
    };
  },
);
