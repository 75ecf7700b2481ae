import "server-only";

import { and, eq, isNull } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { users } from "@/lib/db/schema";
import { KassaError } from "@/lib/errors";
import { can, notAllowedMessage, type Permission, type Role } from "./permissions";

/**
 * For an action taken in `tx` on a member's authority (a payout approval, a compliance review, an
 * invitation): the user must still be a member of the merchant whose role allows `permission`, read
 * now rather than from the session, which was checked before the request's second factor. Their
 * row is share-locked until the action commits, so a removal or role change racing it either
 * commits first (and the action is refused) or waits for it, and sees what it did (the removal
 * then revokes an invitation just sent). Team changes lock users' rows before anything else
 * (lock-actor-and-member.ts), so take this before any other lock. Answers the member's role.
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
