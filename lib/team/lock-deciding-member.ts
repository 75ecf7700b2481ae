import "server-only";

import { and, eq, isNull } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { users } from "@/lib/db/schema";
import { KassaError } from "@/lib/errors";
import { can, notAllowedMessage, type Permission } from "./permissions";

/**
 * For a decision taken in `tx` (a payout approval, a compliance review): the deciding user must
 * still be a member of the merchant whose role allows `permission`, read now rather than from the
 * session, which was checked before the request's second factor. Their row is share-locked until
 * the decision commits, so a removal or role change racing it either commits first (and the
 * decision is refused) or waits for it; team changes lock the same rows (lock-actor-and-member.ts)
 * and nothing else, so this waits in one direction only. Take it before the decided row's lock.
 */
export async function lockDecidingMember(
  tx: Executor,
  input: { merchantId: number; userId: number; permission: Permission },
): Promise<void> {
  const [member] = await tx
    .select({ role: users.role })
    .from(users)
    .where(and(eq(users.id, input.userId), eq(users.merchantId, input.merchantId), isNull(users.removedAt)))
    .for("share");
  if (!member) throw new KassaError("forbidden", "You are no longer a member of this team.");
  if (!can(member.role, input.permission)) throw new KassaError("forbidden", notAllowedMessage(member.role));
}
