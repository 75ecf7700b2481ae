import "server-only";

import { eq } from "drizzle-orm";
import { type AuditSource, recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { NEXT_SESSION_VERSION } from "@/lib/auth/end-sessions";
import type { Db } from "@/lib/db/client";
import { users } from "@/lib/db/schema";
import { inTransaction } from "@/lib/db/transaction";
import { assertAnotherOwner, assertMayManageRole, lockMember } from "./owner-rules";
import type { Role } from "./permissions";

/**
 * Gives a member another role. Their sessions end (the session version moves on), so the new
 * role applies from their next sign-in and no open page keeps the old one's buttons. The last
 * owner cannot be demoted; only an owner changes an owner or makes one.
 */
export async function changeMemberRole(
  db: Db,
  input: { merchantId: number; userId: number; role: Role; actorRole: Role; audit: AuditSource },
): Promise<void> {
  await inTransaction(db, async (tx) => {
    const member = await lockMember(tx, input);
    assertMayManageRole(input.actorRole, { target: member.role, next: input.role });
    if (member.role === input.role) return;
    if (member.role === "owner") await assertAnotherOwner(tx, input);
    await tx
      .update(users)
      .set({ role: input.role, sessionVersion: NEXT_SESSION_VERSION })
      .where(eq(users.id, member.id));
    await recordAuditEntry(tx, {
      merchantId: input.merchantId,
      ...input.audit,
      action: "role_changed",
      detail: `${member.email}: ${member.role} → ${input.role}`,
    });
  });
}
