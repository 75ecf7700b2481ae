import type { Metadata } from "next";
import { requireSession } from "@/lib/auth/session";
import { readReviewThreshold } from "@/lib/compliance/read-review-threshold";
import { getDb } from "@/lib/db/client";
import { ReviewsClient } from "./reviews-client";

export const metadata: Metadata = { title: "Reviews" };

export default async function ReviewsPage() {
  const session = await requireSession({ permission: "compliance.review" });
  const db = getDb();
  return <ReviewsClient threshold={await readReviewThreshold(db, session.merchantId)} />;
}
