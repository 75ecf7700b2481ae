import "server-only";

import { and, eq, gt, isNull } from "drizzle-orm";
import { type Clock, sqlNow } from "@/lib/clock";
import type { Executor } from "@/lib/db/client";
import { authTokens } from "@/lib/db/schema";
import { type AuthTokenPurpose, hashAuthToken } from "./issue-auth-token";

export type RedeemedAuthToken = typeof authTokens.$inferSelect;

/**
 * Marks a link used and returns what it was issued for, or null when it is unknown, expired or
 * already used. One conditional update: of two concurrent uses only one gets the row.
 * `peek` only looks, so a caller can refuse a bad link before doing slow work (hashing a password).
 */
export async function redeemAuthToken(
  db: Executor,
  input: { token: string; purpose: AuthTokenPurpose; clock: Clock; peek?: boolean },
): Promise<RedeemedAuthToken | null> {
  const t = authTokens;
  const isUsable = and(
    eq(t.tokenHash, hashAuthToken(input.token)),
    eq(t.purpose, input.purpose),
    isNull(t.usedAt),
    gt(t.expiresAt, sqlNow(input.clock)),
  );
  if (input.peek) {
    const [row] = await db.select().from(t).where(isUsable);
    return row ?? null;
  }
  const [row] = await db
    .update(t)
    .set({ usedAt: sqlNow(input.clock) })
    .where(isUsable)
    .returning();
  return row ?? null;
}
