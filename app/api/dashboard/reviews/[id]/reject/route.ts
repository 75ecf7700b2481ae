import { decideReviewRoute } from "../../decide-review-route";

/** Rejects a held payment: `rejected` (`cancelled` on the wire), funds held for the operator's refund. Confirmed first. */
export const POST = decideReviewRoute("reject");
