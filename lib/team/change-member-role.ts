import "server-only";

import { eq } from "drizzle-orm";
import { type AuditSource, recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { NEXT_SESSION_VERSION } from "@/lib/auth/end-sessions";
import type { Db } from "@/lib/db/client";
import { users } from "@/lib/db/schema";
import { inTransaction } from "@/lib/db/transaction";
import { lockActorAndMember } from "./lock-actor-and-member";
import { assertAnotherOwner, assertMayManageRole } from "./owner-rules";
import { can, type Role } from "./permissions";
import { revokeInvitationsBy } from "./revoke-invitations-by";

/**
 * Gives a member another role. Their sessions end (the session version moves on), so the new
 * role applies from their next sign-in and no open page keeps the old one's buttons. The last
 * owner cannot be demoted; only an owner changes an owner or makes one. A member who loses
 * team.manage loses the invitations they sent too. `actorId` is the member making the change:
 * their role is read (and locked) here.
 */
export async function changeMemberRole(
  db: Db,
  input: { merchantId: number; userId: number; role: Role; actorId: number; audit: AuditSource },
): Promise<void> {
  await inTransaction(db, async (tx) => {
    const { actor, member, ownerIds } = await lockActorAndMember(tx, input);
    assertMayManageRole(actor.role, { target: member.role, next: input.role });
    if (member.role === input.role) return;
    if (member.role === "owner") assertAnotherOwner({ ownerIds, userId: member.id });
    await tx
      .update(users)
      .set({ role: input.role, sessionVersion: NEXT_SESSION_VERSION })
      .where(eq(users.id, member.id));
    if (!can(input.role, "team.manage"))
      await revokeInvitationsBy(tx, { merchantId: input.merchantId, invitedBy: member.id });
    await recordAuditEntry(tx, {
      merchantId: input.merchantId,
      ...input.audit,
      action: "role_changed",
      detail: `${member.email}: ${member.role} → ${input.role}`,
    });
  });
}
