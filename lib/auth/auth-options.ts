import "server-only";

import { createHmac } from "node:crypto";
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { currentRequestContext } from "@/lib/api/request-context";
import { recordSignIn } from "@/lib/audit/record-sign-in";
import { loadMasterKey } from "@/lib/crypto/master-key";
import { getDb } from "@/lib/db/client";
import { getConfig, getSecretBox } from "@/lib/runtime";
import { clientAddress } from "./client-address";
import { endSessions } from "./end-sessions";
import { needsSecureCookies } from "./needs-secure-cookies";
import { refreshSessionToken, type SignedInUser } from "./refresh-session-token";
import { SignInError, verifySignIn } from "./verify-sign-in";

/** How long a session lasts without a sign-out or a password change: 12 hours. */
export const SESSION_MAX_AGE_SECONDS = 12 * 60 * 60;

/** next-auth's signing secret, derived from the master key: nothing more to configure, the same on every instance. */
export function sessionSecret(): string {
  return (
    process.env.NEXTAUTH_SECRET ??
    createHmac("sha256", loadMasterKey(getConfig())).update("kassa:nextauth").digest("hex")
  );
}

/** Whether next-auth's cookies are `Secure` (and so carry the `__Secure-` prefix). */
export function isSessionCookieSecure(): boolean {
  const config = getConfig();
  return needsSecureCookies({ mode: config.mode, publicUrl: process.env.NEXTAUTH_URL ?? config.publicUrl });
}

/** The session cookie's name, as next-auth names it. */
export const sessionCookieName = () => `${isSessionCookieSecure() ? "__Secure-" : ""}next-auth.session-token`;

/** The sign-in's client address: the connection's peer (from the custom server), or a trusted proxy's word. */
function clientIp(headers: Record<string, unknown> | undefined): string {
  const forwarded = headers?.["x-forwarded-for"];
  return clientAddress({
    peer: currentRequestContext()?.peerAddress,
    forwardedFor: typeof forwarded === "string" ? forwarded : undefined,
    trustedProxies: getConfig().trustedProxies,
  });
}

let cached: NextAuthOptions | undefined;

/**
 * Dashboard sessions (DESIGN.md section 7): credentials (argon2id, optional TOTP), a JWT in an
 * HttpOnly, SameSite=Lax cookie that is Secure in production and on https (lib/auth/needs-secure-cookies.ts),
 * 12 hours long, and refused as soon as its user's session version moves on (sign-out, password change).
 */
export function authOptions(): NextAuthOptions {
  cached ??= {
    secret: sessionSecret(),
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
    useSecureCookies: isSessionCookieSecure(),
    pages: { signIn: "/login" },
    providers: [
      CredentialsProvider({
        name: "E-mail and password",
        credentials: {
          email: { label: "E-mail", type: "email" },
          password: { label: "Password", type: "password" },
          code: { label: "Authenticator code", type: "text" },
        },
        async authorize(credentials, request) {
          const email = credentials?.email ?? "";
          const ip = clientIp(request?.headers as Record<string, unknown> | undefined);
          try {
            const user = await verifySignIn(getDb(), getSecretBox(), {
              email,
              password: credentials?.password ?? "",
              code: credentials?.code || undefined,
              ip,
            });
            await recordSignIn(getDb(), { email, address: ip, isSuccess: true });
            const signedIn: SignedInUser = {
              id: String(user.userId),
              merchantId: user.merchantId,
              sessionVersion: user.sessionVersion,
              role: user.role,
            };
            return { ...signedIn, email: user.email };
          } catch (error) {
            // next-auth passes the message to the client as the error code: one of SignInFailure.
            if (error instanceof SignInError) {
              // "Enter your code" is the first step of a two-factor sign-in, not a failure.
              if (error.reason !== "second_factor_required")
                await recordSignIn(getDb(), { email, address: ip, isSuccess: false, reason: error.reason });
              throw new Error(error.reason);
            }
            throw error;
          }
        },
      }),
    ],
    callbacks: {
      jwt: ({ token, user }) =>
        refreshSessionToken(getDb(), { token, user: user as unknown as SignedInUser | undefined }),
      // next-auth's default throws (a 500) on a callback URL that does not parse, or that is not a string.
      redirect({ url, baseUrl }) {
        if (typeof url !== "string") return baseUrl;
        if (url.startsWith("/")) return `${baseUrl}${url}`;
        return URL.canParse(url) && new URL(url).origin === baseUrl ? url : baseUrl;
      },
      session({ session, token }) {
        // A token whose sessions were ended carries no merchant: the session has none either.
        if (typeof token.merchantId !== "number") return session;
        return { ...session, merchantId: token.merchantId, userId: Number(token.sub), role: token.role };
      },
    },
    events: {
      // Signing out ends every session of the user, so a copy of this cookie is worthless too.
      async signOut({ token }) {
        const userId = Number(token?.sub);
        const sessionVersion = token?.sessionVersion;
        if (Number.isSafeInteger(userId) && typeof sessionVersion === "number")
          await endSessions(getDb(), { userId, sessionVersion });
      },
    },
  };
  return cached;
}
