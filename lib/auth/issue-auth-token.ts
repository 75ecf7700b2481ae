import "server-only";

import { createHash, randomBytes } from "node:crypto";
import { lt } from "drizzle-orm";
import { type Clock, sqlNow } from "@/lib/clock";
import type { Executor } from "@/lib/db/client";
import { authTokens, type SignUpPayload } from "@/lib/db/schema";
import type { Role } from "@/lib/team/permissions";

export type AuthTokenPurpose = "password_reset" | "sign_up" | "invitation";

/**
 * How long each kind of link works: a reset is short-lived (it hands over an account), a sign-up
 * waits a day, an invitation a week (the invitee may be away; the team can revoke it meanwhile).
 */
export const AUTH_TOKEN_SECONDS: Record<AuthTokenPurpose, number> = {
  password_reset: 30 * 60,
  sign_up: 24 * 60 * 60,
  invitation: 7 * 24 * 60 * 60,
};

/** What an invitation link carries: the team to join, the role to join with, who sent it. */
export type InvitationTerms = { merchantId: number; role: Role; invitedBy: number };

/** The stored form of a token: its SHA-256 (the token carries 256 random bits, so no salt or slow hash is needed). */
export const hashAuthToken = (token: string) => createHash("sha256").update(token).digest("hex");

/**
 * Creates a single-use link token and keeps only its hash; the caller e-mails the token in the same
 * transaction (lib/mail/queue-email.ts). Expired rows are deleted as new ones are written.
 */
export async function issueAuthToken(
  db: Executor,
  input: {
    purpose: AuthTokenPurpose;
    email: string;
    userId?: number;
    payload?: SignUpPayload;
    invitation?: InvitationTerms;
    clock: Clock;
  },
): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(input.clock.now().getTime() + AUTH_TOKEN_SECONDS[input.purpose] * 1000);
  await db.delete(authTokens).where(lt(authTokens.expiresAt, sqlNow(input.clock)));
  await db.insert(authTokens).values({
    tokenHash: hashAuthToken(token),
    purpose: input.purpose,
    email: input.email,
    userId: input.userId ?? null,
    payload: input.payload ?? null,
    merchantId: input.invitation?.merchantId ?? null,
    role: input.invitation?.role ?? null,
    invitedBy: input.invitation?.invitedBy ?? null,
    expiresAt,
  });
  return token;
}
