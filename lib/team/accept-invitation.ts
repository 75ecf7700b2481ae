import "server-only";

import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { redeemAuthToken } from "@/lib/auth/redeem-auth-token";
import { type Clock, systemClock } from "@/lib/clock";
import type { Db } from "@/lib/db/client";
import { isUniqueViolation } from "@/lib/db/errors";
import { users } from "@/lib/db/schema";
import { inTransaction } from "@/lib/db/transaction";
import { fieldError } from "@/lib/errors";
import { hashPassword } from "@/lib/merchants/create-merchant";

const EXPIRED = "This invitation has expired, was revoked or was already used. Ask the team for a new one.";

/**
 * Opens an invitation link: creates the invitee's user in the inviting merchant with the invited
 * role and the chosen password, and uses the link up, in one transaction (of two concurrent uses,
 * one wins). An address that meanwhile has a Kassa account elsewhere joins nothing.
 */
export async function acceptInvitation(
  db: Db,
  input: { token: string; password: string; address?: string; clock?: Clock },
): Promise<{ merchantId: number; email: string }> {
  const clock = input.clock ?? systemClock;
  // A bad link is refused before the deliberately slow password hash.
  if (!(await redeemAuthToken(db, { token: input.token, purpose: "invitation", clock, peek: true })))
    throw fieldError({ token: EXPIRED });
  const passwordHash = await hashPassword(input.password);
  try {
    return await inTransaction(db, async (tx) => {
      const invitation = await redeemAuthToken(tx, { token: input.token, purpose: "invitation", clock });
      if (!invitation?.merchantId || !invitation.role) throw fieldError({ token: EXPIRED });
      const [user] = await tx
        .insert(users)
        .values({
          merchantId: invitation.merchantId,
          email: invitation.email,
          passwordHash,
          role: invitation.role,
        })
        .returning({ id: users.id });
      await recordAuditEntry(tx, {
        merchantId: invitation.merchantId,
        actor: { kind: "user", userId: user!.id, email: invitation.email },
        address: input.address,
        action: "member_joined",
        detail: `as ${invitation.role}`,
      });
      return { merchantId: invitation.merchantId, email: invitation.email };
    });
  } catch (error) {
    if (isUniqueViolation(error, "users_email_key"))
      throw fieldError({
        token: "This address already has a Kassa account. Ask the team to invite another address.",
      });
    throw error;
  }
}
