import "server-only";

import { eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { merchants } from "@/lib/db/schema";

/** The merchant's review threshold (a 0-100 score as a decimal string), for the pages that show it. */
export async function readReviewThreshold(db: Db, merchantId: number): Promise<string> {
  const [merchant] = await db
    .select({ threshold: merchants.reviewThreshold })
    .from(merchants)
    .where(eq(merchants.id, merchantId));
  // The column's own default, for a merchant row that is gone (the session's check let it through).
  return merchant?.threshold ?? "80";
}
