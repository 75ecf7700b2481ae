import "server-only";

import { eq } from "drizzle-orm";
import { type AuditSource, recordAuditEntry } from "@/lib/audit/record-audit-entry";
import type { Db } from "@/lib/db/client";
import { authTokens } from "@/lib/db/schema";
import { inTransaction } from "@/lib/db/transaction";
import { findInvitation } from "./find-invitation";
import { lockActingMember } from "./lock-acting-member";
import { assertMayManageRole } from "./owner-rules";

/**
 * Takes a pending invitation back: its link stops working at once. `actorId` is the member taking
 * it back: their role is read (and share-locked, before the invitation's row, in the order a
 * removal takes them) here, not taken from their session.
 */
export async function revokeInvitation(
  db: Db,
  input: { merchantId: number; id: string; actorId: number; audit: AuditSource },
): Promise<void> {
  await inTransaction(db, async (tx) => {
    const { role } = await lockActingMember(tx, {
      merchantId: input.merchantId,
      userId: input.actorId,
      permission: "team.manage",
    });
    const invitation = await findInvitation(tx, input);
    assertMayManageRole(role, { next: invitation.role });
    await tx.delete(authTokens).where(eq(authTokens.tokenHash, invitation.id));
    await recordAuditEntry(tx, {
      merchantId: input.merchantId,
      ...input.audit,
      action: "invitation_revoked",
      detail: `${invitation.email} as ${invitation.role}`,
    });
  });
}
