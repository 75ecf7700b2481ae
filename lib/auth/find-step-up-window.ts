import "server-only";

import { and, eq, gt } from "drizzle-orm";
import { type Clock, systemClock } from "@/lib/clock";
import type { Db } from "@/lib/db/client";
import { stepUpWindows } from "@/lib/db/schema";
import { stepUpKey } from "./open-step-up-window";

/**
 * Until when a session may make sensitive changes without confirming again, or null. Only the
 * session that confirmed has a window (a session without an id, from before windows, has none).
 */
export async function findStepUpWindow(
  db: Db,
  input: { sessionId?: string; userId: number; clock?: Clock },
): Promise<Date | null> {
  if (!input.sessionId) return null;
  const now = (input.clock ?? systemClock).now();
  const [row] = await db
    .select({ expiresAt: stepUpWindows.expiresAt })
    .from(stepUpWindows)
    .where(
      and(
        eq(stepUpWindows.sessionHash, stepUpKey(input.sessionId)),
        eq(stepUpWindows.userId, input.userId),
        gt(stepUpWindows.expiresAt, now),
      ),
    );
  return row?.expiresAt ?? null;
}
