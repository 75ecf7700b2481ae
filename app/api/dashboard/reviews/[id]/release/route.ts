import { decideReviewRoute } from "../../decide-review-route";

/** Releases a held payment: credited as its confirmation would have, with the callback. Asks for the second factor. */
export const POST = decideReviewRoute("release");
