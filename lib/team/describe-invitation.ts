import "server-only";

import { and, eq } from "drizzle-orm";
import { hashAuthToken } from "@/lib/auth/issue-auth-token";
import { type Clock, systemClock } from "@/lib/clock";
import type { Executor } from "@/lib/db/client";
import { authTokens, merchants } from "@/lib/db/schema";
import { fieldError } from "@/lib/errors";
import type { Role } from "./permissions";

export type InvitationDetails = { team: string; role: Role; email: string };

/**
 * What an invitation link invites to: the team's name, the role and the address invited, for the
 * join page to say before a password is chosen. Only a link that still works learns them; a bad,
 * revoked or replaced one, a used one and an expired one each get a plain reason and nothing else.
 * Knowing the team takes the link's token (256 random bits), which only its recipient has.
 */
export async function describeInvitation(
  db: Executor,
  input: { token: string; clock?: Clock },
): Promise<InvitationDetails> {
  const now = (input.clock ?? systemClock).now();
  const [row] = await db
    .select({
      team: merchants.name,
      role: authTokens.role,
      email: authTokens.email,
      usedAt: authTokens.usedAt,
      expiresAt: authTokens.expiresAt,
    })
    .from(authTokens)
    .innerJoin(merchants, eq(merchants.id, authTokens.merchantId))
    .where(and(eq(authTokens.tokenHash, hashAuthToken(input.token)), eq(authTokens.purpose, "invitation")));
  if (!row?.role)
    throw fieldError({
      token:
        "This invitation link does not work: it may be cut short, or the invitation was revoked or replaced by a newer one. Ask the team for a new one.",
    });
  if (row.usedAt)
    throw fieldError({
      token:
        "This invitation was already used. Sign in with the password chosen then, or ask the team for a new one.",
    });
  if (row.expiresAt <= now)
    throw fieldError({ token: "This invitation has expired. Ask the team for a new one." });
  return { team: row.team, role: row.role, email: row.email };
}
