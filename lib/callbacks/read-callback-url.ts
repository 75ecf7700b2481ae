import "server-only";

import { eq } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { merchants } from "@/lib/db/schema";

/** The merchant's callback URL as saved now; null when none is set (callbacks are off). */
export async function readCallbackUrl(db: Executor, merchantId: number): Promise<string | null> {
  const [merchant] = await db
    .select({ url: merchants.callbackUrl })
    .from(merchants)
    .where(eq(merchants.id, merchantId));
  return merchant?.url ?? null;
}
