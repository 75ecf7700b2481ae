import "server-only";

import { and, eq, isNull } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { users } from "@/lib/db/schema";
import { KassaError } from "@/lib/errors";
import { can, notAllowedMessage, type Permission, type Role } from "./permissions";

/**
 * For an action in `tx` on a member's authority (approval, review, invitation): the user must still be a
 * member whose role allows `permission`, read now, not from the session. Share-locks their row until
 * commit: a racing removal or role change lands first (action refused) or after (and sees it). Take this
 * before any other lock (docs/decisions/team-change-locks.md). Returns the member's role.
 */
export async function lockActingMember(
  tx: Executor,
  input: { merchantId: number; userId: number; permission: Permission },
): Promise<{ role: Role }> {
  const [member] = await tx
    .select({ role: users.role })
    .from(users)
    .where(and(eq(users.id, input.userId), eq(users.merchantId, input.merchantId), isNull(users.removedAt)))
    .for("share");
  if (!member) throw new KassaError("forbidden", "You are no longer a member of this team.");
  if (!can(member.role, input.permission)) throw new KassaError("forbidden", notAllowedMessage(member.role));
  return member;
}
