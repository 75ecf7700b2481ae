import "server-only";

import { createHmac } from "node:crypto";
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { currentRequestContext } from "@/lib/api/request-context";
import { loadMasterKey } from "@/lib/crypto/master-key";
import { getDb } from "@/lib/db/client";
import { getConfig, getSecretBox } from "@/lib/runtime";
import { clientAddress } from "./client-address";
import { SignInError, verifySignIn } from "./verify-sign-in";

/** next-auth's signing secret, derived from the master key: nothing more to configure, the same on every instance. */
function sessionSecret(): string {
  return (
    process.env.NEXTAUTH_SECRET ??
    createHmac("sha256", loadMasterKey(getConfig())).update("kassa:nextauth").digest("hex")
  );
}

function isLocalhost(): boolean {
  const url = process.env.NEXTAUTH_URL ?? getConfig().publicUrl;
  if (!url) return true;
  const { hostname } = new URL(url);
  return hostname === "localhost" || hostname === "127.0.0.1" || hostname === "::1";
}

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
 * HttpOnly, SameSite=Lax cookie that is Secure everywhere but on localhost, 12 hours long.
 */
export function authOptions(): NextAuthOptions {
  cached ??= {
    secret: sessionSecret(),
    session: { strategy: "jwt", maxAge: 12 * 60 * 60 },
    useSecureCookies: !isLocalhost(),
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
          try {
            const user = await verifySignIn(getDb(), getSecretBox(), {
              email: credentials?.email ?? "",
              password: credentials?.password ?? "",
              code: credentials?.code || undefined,
              ip: clientIp(request?.headers as Record<string, unknown> | undefined),
            });
            return { id: String(user.userId), email: user.email, merchantId: user.merchantId };
          } catch (error) {
            // next-auth passes the message to the client as the error code: one of SignInFailure.
            if (error instanceof SignInError) throw new Error(error.reason);
            throw error;
          }
        },
      }),
    ],
    callbacks: {
      jwt({ token, user }) {
        if (user) token.merchantId = (user as unknown as { merchantId: number }).merchantId;
        return token;
      },
      session({ session, token }) {
        return { ...session, merchantId: token.merchantId as number, userId: Number(token.sub) };
      },
    },
  };
  return cached;
}
