import "server-only";

import { decode } from "next-auth/jwt";
import type { Db } from "@/lib/db/client";
import { isRole } from "@/lib/team/permissions";
import { sessionCookieName, sessionSecret } from "./auth-options";
import type { MerchantSession } from "./merchant-session";
import { refreshSessionToken, type SessionClaims } from "./refresh-session-token";

/** The cookies of a request by name (the last of duplicates wins, as next-auth reads them). */
function requestCookies(request: Request): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const at = part.indexOf("=");
    if (at < 0) continue;
    cookies.set(part.slice(0, at).trim(), part.slice(at + 1).trim());
  }
  return cookies;
}

/**
 * The session a dashboard route handler runs for, read from its own request: the session cookie
 * (next-auth splits a long one into `name.0`, `name.1`, …), decrypted with the session secret and
 * checked against the user's current session version and role exactly as next-auth's jwt callback
 * does for pages (lib/auth/refresh-session-token.ts). Reading the request rather than Next's
 * request store keeps route handlers callable as plain functions (tests/integration/team-role-matrix.test.ts).
 */
export async function readRequestSession(db: Db, request: Request): Promise<MerchantSession | undefined> {
  const name = sessionCookieName();
  const cookies = requestCookies(request);
  const chunks = [...cookies.keys()]
    .filter((key) => key === name || key.startsWith(`${name}.`))
    .sort((a, b) => Number(a.split(".").pop()) - Number(b.split(".").pop()));
  const value = chunks.map((key) => cookies.get(key)).join("");
  if (!value) return undefined;
  const token = (await decode({ token: value, secret: sessionSecret() }).catch(() => null)) as
    | (SessionClaims & { email?: string })
    | null;
  if (!token) return undefined;
  const claims = await refreshSessionToken(db, { token });
  if (typeof claims.merchantId !== "number" || !isRole(claims.role)) return undefined;
  return {
    merchantId: claims.merchantId,
    userId: Number(claims.sub),
    email: token.email ?? "",
    role: claims.role,
    sessionId: typeof claims.sessionId === "string" ? claims.sessionId : undefined,
  };
}
