import "server-only";

import { createHash } from "node:crypto";
import { lt } from "drizzle-orm";
import { type Clock, systemClock } from "@/lib/clock";
import type { Db } from "@/lib/db/client";
import { stepUpWindows } from "@/lib/db/schema";

/**
 * How long one confirmation lets a session make sensitive changes: 5 minutes, as GitHub's sudo
 * mode does, so a user doing several changes in a row confirms once, and a session left open
 * (or stolen) an hour later is asked again.
 */
export const STEP_UP_SECONDS = 5 * 60;

/** What the table keys a window by: a session id never lies in the database as it is. */
export const stepUpKey = (sessionId: string) => createHash("sha256").update(sessionId).digest("hex");

/**
 * Opens (or renews) the step-up window of one session, after confirmUser accepted its user's
 * password or code. The caller has confirmed; this only records until when.
 */
export async function openStepUpWindow(
  db: Db,
  input: { sessionId: string; userId: number; clock?: Clock },
): Promise<Date> {
  const now = (input.clock ?? systemClock).now();
  const expiresAt = new Date(now.getTime() + STEP_UP_SECONDS * 1000);
  await db.delete(stepUpWindows).where(lt(stepUpWindows.expiresAt, now));
  await db
    .insert(stepUpWindows)
    .values({ sessionHash: stepUpKey(input.sessionId), userId: input.userId, expiresAt })
    .onConflictDoUpdate({ target: stepUpWindows.sessionHash, set: { userId: input.userId, expiresAt } });
  return expiresAt;
}
