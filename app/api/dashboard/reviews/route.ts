import { withSession } from "@/lib/api/with-session";
import { listReviews } from "@/lib/compliance/list-reviews";

/** The review queue (`?status=held`, the default) or the recent decisions (`?status=decided`). */
export const GET = withSession({ permission: "compliance.review" }, async ({ db, session, query }) => ({
  data: await listReviews(db, {
    merchantId: session.merchantId,
    status: query.get("status") === "decided" ? "decided" : "held",
  }),
}));
