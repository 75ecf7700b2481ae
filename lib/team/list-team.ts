import "server-only";

import { and, asc, eq, gt, isNull } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { type Clock, sqlNow, systemClock } from "@/lib/clock";
import type { Executor } from "@/lib/db/client";
import { authTokens, users } from "@/lib/db/schema";
import type { Role } from "./permissions";

export type TeamMember = { id: number; email: string; role: Role; joinedAt: Date };

/** A pending invitation, named by its stored token hash (not the link: the hash cannot be opened). */
export type PendingInvitation = {
  id: string;
  email: string;
  role: Role;
  invitedBy: string | null;
  expiresAt: Date;
};

/** The merchant's members (removed ones left out) and its invitations still waiting to be accepted. */
export async function listTeam(
  db: Executor,
  input: { merchantId: number; clock?: Clock },
): Promise<{ members: TeamMember[]; invitations: PendingInvitation[] }> {
  const members = await db
    .select({ id: users.id, email: users.email, role: users.role, joinedAt: users.createdAt })
    .from(users)
    .where(and(eq(users.merchantId, input.merchantId), isNull(users.removedAt)))
    .orderBy(asc(users.id));
  const inviter = alias(users, "inviter");
  const rows = await db
    .select({
      id: authTokens.tokenHash,
      email: authTokens.email,
      role: authTokens.role,
      invitedBy: inviter.email,
      expiresAt: authTokens.expiresAt,
    })
    .from(authTokens)
    .leftJoin(inviter, eq(inviter.id, authTokens.invitedBy))
    .where(
      and(
        eq(authTokens.purpose, "invitation"),
        eq(authTokens.merchantId, input.merchantId),
        isNull(authTokens.usedAt),
        gt(authTokens.expiresAt, sqlNow(input.clock ?? systemClock)),
      ),
    )
    .orderBy(asc(authTokens.createdAt));
  return {
    members,
    invitations: rows.map((row) => ({ ...row, role: row.role ?? "viewer" })),
  };
}
