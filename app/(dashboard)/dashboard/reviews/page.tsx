import { eq } from "drizzle-orm";
import type { Metadata } from "next";
import { requireSession } from "@/lib/auth/session";
import { getDb } from "@/lib/db/client";
import { merchants, users } from "@/lib/db/schema";
import { ReviewsClient } from "./reviews-client";

export const metadata: Metadata = { title: "Reviews" };

export default async function ReviewsPage() {
  const session = await requireSession({ permission: "compliance.review" });
  const db = getDb();
  const [user] = await db
    .select({ totp: users.totpSecretSealed })
    .from(users)
    .where(eq(users.id, session.userId));
  const [merchant] = await db
    .select({ threshold: merchants.reviewThreshold })
    .from(merchants)
    .where(eq(merchants.id, session.merchantId));
  return <ReviewsClient hasTotp={Boolean(user?.totp)} threshold={merchant?.threshold ?? "80"} />;
}
