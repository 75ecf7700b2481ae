import "server-only";

import { type AuditSource, recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { claimMailRequest } from "@/lib/auth/claim-mail-request";
import { type Clock, systemClock } from "@/lib/clock";
import type { SecretBox } from "@/lib/crypto/secret-box";
import type { Db } from "@/lib/db/client";
import { inTransaction } from "@/lib/db/transaction";
import { findInvitation } from "./find-invitation";
import { type Inviter, sendInvitation } from "./invite-member";
import { lockActingMember } from "./lock-acting-member";
import { assertMayManageRole } from "./owner-rules";

/**
 * Sends a pending invitation again with a new link and a fresh week; the earlier link stops
 * working. Rationed with the recipient's other e-mails (lib/auth/claim-mail-request.ts). Recorded
 * as an invitation in the audit trail.
 */
export async function resendInvitation(
  db: Db,
  input: {
    merchantId: number;
    id: string;
    inviter: Inviter;
    baseUrl: string;
    box: SecretBox;
    audit: AuditSource;
    clock?: Clock;
  },
): Promise<void> {
  await inTransaction(db, async (tx) => {
    // The sender's current authority, locked before the invitation's row: a removal locks users
    // first and then deletes their invitations, so the other order could deadlock with it.
    const { role } = await lockActingMember(tx, {
      merchantId: input.merchantId,
      userId: input.inviter.userId,
      permission: "team.manage",
    });
    const invitation = await findInvitation(tx, input);
    assertMayManageRole(role, { next: invitation.role });
    // Counted in this transaction: a resend refused, or rolled back, does not spend the recipient's ration.
    await claimMailRequest(tx, { email: invitation.email });
    await sendInvitation(tx, {
      merchantId: input.merchantId,
      inviter: input.inviter,
      email: invitation.email,
      role: invitation.role,
      baseUrl: input.baseUrl,
      box: input.box,
      clock: input.clock ?? systemClock,
    });
    await recordAuditEntry(tx, {
      merchantId: input.merchantId,
      ...input.audit,
      action: "member_invited",
      detail: `${invitation.email} as ${invitation.role} (sent again)`,
    });
  });
}
