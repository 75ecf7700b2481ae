import "server-only";

import { eq } from "drizzle-orm";
import { type AuditSource, recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { NEXT_SESSION_VERSION } from "@/lib/auth/end-sessions";
import type { Db } from "@/lib/db/client";
import { authTokens, users } from "@/lib/db/schema";
import { inTransaction } from "@/lib/db/transaction";
import { lockActorAndMember } from "./lock-actor-and-member";
import { assertAnotherOwner, assertMayManageRole } from "./owner-rules";
import { revokeInvitationsBy } from "./revoke-invitations-by";

/**
 * Removes a member from the team: every session of theirs ends at its next request, their
 * unused e-mailed links die, and they can no longer sign in. The row stays (withdrawals name who
 * created and decided them), marked removed; the address is free for a new invitation. The last
 * owner cannot be removed; only an owner removes an owner. Invitations the member sent die with
 * their membership. `actorId` is the member removing: their role is read (and locked) here.
 */
export async function removeMember(
  db: Db,
  input: { merchantId: number; userId: number; actorId: number; audit: AuditSource },
): Promise<void> {
  await inTransaction(db, async (tx) => {
    const { actor, member, ownerIds } = await lockActorAndMember(tx, input);
    assertMayManageRole(actor.role, { target: member.role });
    if (member.role === "owner") assertAnotherOwner({ ownerIds, userId: member.id });
    await tx
      .update(users)
      .set({ removedAt: new Date(), sessionVersion: NEXT_SESSION_VERSION })
      .where(eq(users.id, member.id));
    await tx.delete(authTokens).where(eq(authTokens.userId, member.id));
    await revokeInvitationsBy(tx, { merchantId: input.merchantId, invitedBy: member.id });
    await recordAuditEntry(tx, {
      merchantId: input.merchantId,
      ...input.audit,
      action: "member_removed",
      detail: `${member.email} (${member.role})`,
    });
  });
}
