import "server-only";

import { and, eq, isNull, sql } from "drizzle-orm";
import { type AuditSource, recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { claimMailRequest } from "@/lib/auth/claim-mail-request";
import { AUTH_TOKEN_SECONDS, issueAuthToken } from "@/lib/auth/issue-auth-token";
import { type Clock, systemClock } from "@/lib/clock";
import type { SecretBox } from "@/lib/crypto/secret-box";
import type { Db, Executor } from "@/lib/db/client";
import { authTokens, merchants, users } from "@/lib/db/schema";
import { inTransaction } from "@/lib/db/transaction";
import { fieldError, KassaError } from "@/lib/errors";
import { queueEmail } from "@/lib/mail/queue-email";
import { invitationEmail } from "@/lib/mail/team-templates";
import { lockActingMember } from "./lock-acting-member";
import { assertMayManageRole } from "./owner-rules";
import type { Role } from "./permissions";

export type Inviter = { userId: number; email: string; role: Role };

/**
 * Invites `email` with `role`: a single-use 7-day link (issue-auth-token.ts) e-mailed via the job queue,
 * the invitation and audit entry in one transaction; a new one replaces the address's earlier one.
 * Rationed per recipient (claim-mail-request.ts). Refused until onboarding is done: only owners and
 * admins can finish it, and other members would bounce between it and "not allowed".
 */
export async function inviteMember(
  db: Db,
  input: {
    merchantId: number;
    inviter: Inviter;
    email: string;
    role: Role;
    baseUrl: string;
    box: SecretBox;
    audit: AuditSource;
    clock?: Clock;
  },
): Promise<void> {
  assertMayManageRole(input.inviter.role, { next: input.role });
  const [merchant] = await db
    .select({ onboardedAt: merchants.onboardedAt })
    .from(merchants)
    .where(eq(merchants.id, input.merchantId));
  if (!merchant?.onboardedAt)
    throw new KassaError(
      "bad_request",
      "Finish setting up your account (onboarding) before inviting your team.",
    );
  const email = input.email.trim().toLowerCase();
  await inTransaction(db, async (tx) => {
    // The inviter's authority as it is now: removed or demoted since their session was checked,
    // they invite nobody (and a removal racing this waits, then revokes what it sent).
    const { role } = await lockActingMember(tx, {
      merchantId: input.merchantId,
      userId: input.inviter.userId,
      permission: "team.manage",
    });
    assertMayManageRole(role, { next: input.role });
    const [member] = await tx
      .select({ id: users.id })
      .from(users)
      .where(
        and(
          eq(users.merchantId, input.merchantId),
          sql`lower(${users.email}) = ${email}`,
          isNull(users.removedAt),
        ),
      );
    if (member) throw fieldError({ email: "This address is already a member of your team." });
    // Counted here, as a resend is: an invitation refused (role, membership) or rolled back sends no
    // mail and does not spend the recipient's ration, which their password resets share.
    await claimMailRequest(tx, { email });
    await sendInvitation(tx, { ...input, email, clock: input.clock ?? systemClock });
    await recordAuditEntry(tx, {
      merchantId: input.merchantId,
      ...input.audit,
      action: "member_invited",
      detail: `${email} as ${input.role}`,
    });
  });
}

/**
 * Writes an invitation link (replacing the address's earlier one) and queues its e-mail, in the
 * caller's transaction. The message is kept out of the merchant's sandbox outbox (merchant null):
 * another member's session must not be able to read the link there and join as someone else.
 */
export async function sendInvitation(
  tx: Executor,
  input: {
    merchantId: number;
    inviter: Inviter;
    email: string;
    role: Role;
    baseUrl: string;
    box: SecretBox;
    clock: Clock;
  },
): Promise<void> {
  await tx
    .delete(authTokens)
    .where(
      and(
        eq(authTokens.purpose, "invitation"),
        eq(authTokens.merchantId, input.merchantId),
        eq(authTokens.email, input.email),
      ),
    );
  const token = await issueAuthToken(tx, {
    purpose: "invitation",
    email: input.email,
    invitation: { merchantId: input.merchantId, role: input.role, invitedBy: input.inviter.userId },
    clock: input.clock,
  });
  const [merchant] = await tx
    .select({ name: merchants.name })
    .from(merchants)
    .where(eq(merchants.id, input.merchantId));
  const message = invitationEmail({
    merchantName: merchant?.name ?? "a merchant",
    inviter: input.inviter.email,
    role: input.role,
    link: `${input.baseUrl}/join#token=${token}`,
    days: AUTH_TOKEN_SECONDS.invitation / 86_400,
  });
  await queueEmail(tx, {
    merchantId: null,
    kind: "invitation",
    recipient: input.email,
    ...message,
    secret: { token, box: input.box },
  });
}
