import "server-only";

import type { Executor } from "@/lib/db/client";
import { auditEntries } from "@/lib/db/schema";

/** Who did it: a dashboard user, an API key (by its public half), or an operator at the CLI. */
export type AuditActor =
  | { kind: "user"; userId: number; email: string }
  | { kind: "api_key"; key: string }
  | { kind: "cli" };

/** The actions the trail records; the dashboard filters on these names. */
export const AUDIT_ACTIONS = [
  "sign_in",
  "sign_in_failed",
  "api_key_created",
  "api_key_revoked",
  "api_key_rolled",
  "api_key_allowlist_changed",
  "limit_changed",
  "payout_created",
  "payout_approved",
  "payout_declined",
  "callback_url_changed",
  "callback_key_changed",
  "callback_settings_changed",
  "onboarding_completed",
  "two_factor_enabled",
  "two_factor_disabled",
  "password_changed",
  "member_invited",
  "invitation_revoked",
  "member_joined",
  "role_changed",
  "member_removed",
  "review_released",
  "review_rejected",
  "review_threshold_changed",
  "review_refunded",
  "refund_issued",
  "refund_cancelled",
  "invoice_resolved",
  "underpayment_tolerance_changed",
  "support_email_changed",
  "payment_link_created",
  "payment_link_deactivated",
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Who asked for an action and from which client address, for actions that record themselves. */
export type AuditSource = { actor: AuditActor; address?: string };

/** The actor as the trail shows it. */
export function actorText(actor: AuditActor): string {
  if (actor.kind === "user") return actor.email;
  if (actor.kind === "api_key") return `API key ${actor.key}`;
  return "operator CLI";
}

/**
 * Appends one entry to the merchant's audit trail. Pass the action's own transaction as `db`, so
 * the entry exists exactly when the action happened.
 */
export async function recordAuditEntry(
  db: Executor,
  entry: { merchantId: number; actor: AuditActor; address?: string; action: AuditAction; detail?: string },
): Promise<void> {
  await db.insert(auditEntries).values({
    merchantId: entry.merchantId,
    actor: actorText(entry.actor),
    userId: entry.actor.kind === "user" ? entry.actor.userId : null,
    address: entry.address ?? null,
    action: entry.action,
    detail: entry.detail ?? "",
  });
}
