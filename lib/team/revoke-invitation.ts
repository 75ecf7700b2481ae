import "server-only";

import { eq } from "drizzle-orm";
import { type AuditSource, recordAuditEntry } from "@/lib/audit/record-audit-entry";
import type { Db } from "@/lib/db/client";
import { authTokens } from "@/lib/db/schema";
import { inTransaction } from "@/lib/db/transaction";
import { findInvitation } from "./find-invitation";
import { assertMayManageRole } from "./owner-rules";
import type { Role } from "./permissions";

/** Takes a pending invitation back: its link stops working at once. */
export async function revokeInvitation(
  db: Db,
  input: { merchantId: number; id: string; actorRole: Role; audit: AuditSource },
): Promise<void> {
  await inTransaction(db, async (tx) => {
    const invitation = await findInvitation(tx, input);
    assertMayManageRole(input.actorRole, { next: invitation.role });
    await tx.delete(authTokens).where(eq(authTokens.tokenHash, invitation.id));
    await recordAuditEntry(tx, {
      merchantId: input.merchantId,
      ...input.audit,
      action: "invitation_revoked",
      detail: `${invitation.email} as ${invitation.role}`,
    });
  });
}
