import "server-only";

import { eq } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { merchants } from "@/lib/db/schema";

/** The merchant's support address, for customer-facing pages (checkout, refund) and mail; null when none is set. */
export async function readSupportContact(db: Executor, merchantId: number): Promise<string | null> {
  const [row] = await db
    .select({ email: merchants.supportEmail })
    .from(merchants)
    .where(eq(merchants.id, merchantId));
  return row?.email ?? null;
}
