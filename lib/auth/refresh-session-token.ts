import "server-only";

import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { users } from "@/lib/db/schema";
import type { Role } from "@/lib/team/permissions";

/**
 * What Kassa keeps in a session's JWT besides next-auth's own claims (`sub` is the user's id).
 * `role` is refreshed from the database on every request, never trusted from the cookie. `sessionId`
 * names this one sign-in (a browser's session), so a step-up window belongs to it and not to every
 * session of the user (lib/auth/open-step-up-window.ts).
 */
export type SessionClaims = {
  sub?: string;
  merchantId?: number;
  sessionVersion?: number;
  role?: Role;
  sessionId?: string;
};

/** The user next-auth hands to the jwt callback at sign-in (what `authorize` returned). */
export type SignedInUser = { id: string; merchantId: number; sessionVersion: number; role: Role };

/**
 * next-auth's jwt callback, at sign-in and on every session read. At sign-in the token takes the merchant
 * and the user's session version; later it stands only while that version is current (sign-out, a
 * password, second-factor or role change moves it on), else it returns without a merchant: no session.
 * Reads the database each time because a JWT cannot be revoked; the same read gives the current role.
 */
export async function refreshSessionToken<Token extends SessionClaims>(
  db: Db,
  input: { token: Token; user?: SignedInUser },
): Promise<SessionClaims> {
  const { token, user } = input;
  if (user)
    return {
      ...token,
      merchantId: user.merchantId,
      sessionVersion: user.sessionVersion,
      role: user.role,
      sessionId: randomBytes(18).toString("base64url"),
    };
  const userId = Number(token.sub);
  if (!Number.isSafeInteger(userId) || token.merchantId === undefined) return {};
  const [current] = await db
    .select({
      sessionVersion: users.sessionVersion,
      merchantId: users.merchantId,
      role: users.role,
      removedAt: users.removedAt,
    })
    .from(users)
    .where(eq(users.id, userId));
  const isCurrent =
    current?.sessionVersion === token.sessionVersion &&
    current?.merchantId === token.merchantId &&
    current.removedAt === null;
  return isCurrent ? { ...token, role: current.role } : {};
}
