import { withSession } from "@/lib/api/with-session";
import { sessionSource } from "@/lib/audit/session-source";
import { confirmUser } from "@/lib/auth/confirm-user";
import { setReviewThreshold } from "@/lib/compliance/set-review-threshold";
import { getSecretBox } from "@/lib/runtime";
import { reviewThresholdRequest } from "@/lib/schemas/compliance";

/** Sets the score from which incoming payments wait for review; asks for the second factor (it loosens compliance). */
export const POST = withSession(
  { permission: "settings.manage", request: reviewThresholdRequest },
  async ({ db, session, body, request }) => {
    const { threshold, ...secondFactor } = body;
    await confirmUser(db, {
      userId: session.userId,
      ask: "second_factor",
      box: getSecretBox(),
      ...secondFactor,
    });
    return {
      review_threshold: await setReviewThreshold(db, {
        merchantId: session.merchantId,
        threshold,
        audit: sessionSource(session, request),
      }),
    };
  },
);
