import "server-only";

import { eq } from "drizzle-orm";
import { encode } from "next-auth/jwt";
import type { Db } from "@/lib/db/client";
import { users } from "@/lib/db/schema";
import {
  isSessionCookieSecure,
  SESSION_MAX_AGE_SECONDS,
  sessionCookieName,
  sessionSecret,
} from "./auth-options";
import type { MerchantSession } from "./merchant-session";
import type { SessionClaims } from "./refresh-session-token";

export type SessionCookie = {
  name: string;
  value: string;
  httpOnly: true;
  sameSite: "lax";
  path: "/";
  secure: boolean;
  maxAge: number;
};

/**
 * After a password or second-factor change ended every session of the user, the session cookie for
 * the browser that made the change, at the new version: the user stays signed in there, and only
 * there. The route sets it on its response.
 */
export async function renewSessionCookie(
  db: Db,
  session: MerchantSession,
): Promise<SessionCookie | undefined> {
  const [user] = await db
    .select({ sessionVersion: users.sessionVersion })
    .from(users)
    .where(eq(users.id, session.userId));
  if (!user) return undefined;
  const claims: SessionClaims & { email: string } = {
    sub: String(session.userId),
    email: session.email,
    merchantId: session.merchantId,
    sessionVersion: user.sessionVersion,
    // The same sign-in goes on in this browser, with its step-up window.
    sessionId: session.sessionId,
  };
  return {
    name: sessionCookieName(),
    value: await encode({ token: claims, secret: sessionSecret(), maxAge: SESSION_MAX_AGE_SECONDS }),
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure: isSessionCookieSecure(),
    maxAge: SESSION_MAX_AGE_SECONDS,
  };
}
