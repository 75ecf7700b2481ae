import "server-only";

import { and, eq, isNull } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { apiKeys } from "@/lib/db/schema";
import { notFound } from "@/lib/errors";

/** Revokes a key of this merchant. Takes effect on the next request: keys are not cached. */
export async function revokeApiKey(db: Executor, input: { merchantId: number; key: string }): Promise<void> {
  const revoked = await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(
      and(eq(apiKeys.key, input.key), eq(apiKeys.merchantId, input.merchantId), isNull(apiKeys.revokedAt)),
    )
    .returning({ id: apiKeys.id });
  if (revoked.length === 0) throw notFound("No active API key with that value for this merchant.");
}
