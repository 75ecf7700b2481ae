import "server-only";

import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { stepUpWindows, users } from "@/lib/db/schema";

/** The update that ends every session of a user: sessions carry the version they were issued at. */
export const NEXT_SESSION_VERSION = sql`${users.sessionVersion} + 1`;

/**
 * Sign-out: ends every session of a user issued at `sessionVersion`, so each copy of the cookie,
 * wherever it went, is refused at its next request (lib/auth/refresh-session-token.ts). A cookie
 * whose sessions already ended changes nothing, so an old copy cannot sign its owner out again.
 */
export async function endSessions(db: Db, input: { userId: number; sessionVersion: number }): Promise<void> {
  const ended = await db
    .update(users)
    .set({ sessionVersion: NEXT_SESSION_VERSION })
    .where(and(eq(users.id, input.userId), eq(users.sessionVersion, input.sessionVersion)))
    .returning({ id: users.id });
  // The sessions' step-up windows go with them.
  if (ended.length > 0) await db.delete(stepUpWindows).where(eq(stepUpWindows.userId, input.userId));
}
