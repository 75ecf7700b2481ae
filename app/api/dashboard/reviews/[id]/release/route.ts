import { decideReviewRoute } from "../../decide-review-route";

/** Releases a held payment: credited as its confirmation would have, with the callback. Confirmed first. */
export const POST = decideReviewRoute("release");
