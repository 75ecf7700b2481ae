import "server-only";

import type { AuditAction } from "@/lib/audit/record-audit-entry";
import type { Permission } from "./permissions";

/**
 * How a sensitive action is confirmed. `step_up`: the session must have a live step-up window
 * (lib/auth/open-step-up-window.ts): its user confirmed with the authenticator code, or the
 * password without two-factor sign-in, in the last few minutes; asked before the body is read.
 * `password`: the current password in the body's `field`, every time, window or not (changing the
 * password or the second factor must not ride on a window a stolen session could open).
 */
export type Confirmation = { kind: "step_up" } | { kind: "password"; field: string };

export type SensitiveAction = { permission: Permission; confirmation: Confirmation; audit: AuditAction };

const STEP_UP: Confirmation = { kind: "step_up" };

/**
 * Every change of credentials, money routing, limits or team: who may do it, how it is confirmed,
 * and the audit action it records. A dashboard route names its entry (`action` in its withSession
 * spec), and the wrapper enforces the permission and the confirmation from here, so a route cannot
 * have one without the other. Adding an action is one line here and `{ action: "..." }` in the route;
 * tests/integration/sensitive-actions.test.ts drives every route and holds each to its entry.
 */
export const SENSITIVE_ACTIONS = {
  "api_key.create": { permission: "api_keys.manage", confirmation: STEP_UP, audit: "api_key_created" },
  "api_key.roll": { permission: "api_keys.manage", confirmation: STEP_UP, audit: "api_key_rolled" },
  "api_key.revoke": { permission: "api_keys.manage", confirmation: STEP_UP, audit: "api_key_revoked" },
  "api_key.allowlist": {
    permission: "api_keys.manage",
    confirmation: STEP_UP,
    audit: "api_key_allowlist_changed",
  },
  "callback.url": { permission: "callbacks.manage", confirmation: STEP_UP, audit: "callback_url_changed" },
  "callback.signing_key": {
    permission: "callbacks.choose_key",
    confirmation: STEP_UP,
    audit: "callback_key_changed",
  },
  "callback.settings": {
    permission: "callbacks.manage",
    confirmation: STEP_UP,
    audit: "callback_settings_changed",
  },
  "limits.set": { permission: "limits.manage", confirmation: STEP_UP, audit: "limit_changed" },
  "limits.remove": { permission: "limits.manage", confirmation: STEP_UP, audit: "limit_changed" },
  "merchant.onboard": { permission: "settings.manage", confirmation: STEP_UP, audit: "onboarding_completed" },
  "account.password": {
    permission: "account.manage",
    confirmation: { kind: "password", field: "current_password" },
    audit: "password_changed",
  },
  "account.two_factor_on": {
    permission: "account.manage",
    confirmation: { kind: "password", field: "password" },
    audit: "two_factor_enabled",
  },
  "account.two_factor_off": {
    permission: "account.manage",
    confirmation: { kind: "password", field: "password" },
    audit: "two_factor_disabled",
  },
  "team.invite": { permission: "team.manage", confirmation: STEP_UP, audit: "member_invited" },
  "team.invitation_resend": { permission: "team.manage", confirmation: STEP_UP, audit: "member_invited" },
  "team.invitation_revoke": { permission: "team.manage", confirmation: STEP_UP, audit: "invitation_revoked" },
  "team.role": { permission: "team.manage", confirmation: STEP_UP, audit: "role_changed" },
  "team.remove": { permission: "team.manage", confirmation: STEP_UP, audit: "member_removed" },
  /** Dashboard payouts, with or without conversion, and refunds (a payout with `refund_of`). */
  "payout.create": { permission: "payouts.create", confirmation: STEP_UP, audit: "payout_created" },
  "payout.instant": { permission: "payouts.create", confirmation: STEP_UP, audit: "payout_created" },
  /** A bulk payout from a file: every payout of it is recorded as created. */
  "payout.batch": { permission: "payouts.create", confirmation: STEP_UP, audit: "payout_created" },
  /** A refund offered to an invoice's customer (lib/refunds): they claim it, and it is paid like a payout. */
  "refund.issue": { permission: "payouts.create", confirmation: STEP_UP, audit: "refund_issued" },
  "payout.approve": { permission: "payouts.approve", confirmation: STEP_UP, audit: "payout_approved" },
  "payout.decline": { permission: "payouts.approve", confirmation: STEP_UP, audit: "payout_declined" },
  "review.release": { permission: "compliance.review", confirmation: STEP_UP, audit: "review_released" },
  "review.reject": { permission: "compliance.review", confirmation: STEP_UP, audit: "review_rejected" },
  "review.threshold": {
    permission: "settings.manage",
    confirmation: STEP_UP,
    audit: "review_threshold_changed",
  },
  /** Closing an invoice that owes its customer money without a refund: the money is kept. */
  "invoice.resolve": { permission: "payouts.create", confirmation: STEP_UP, audit: "invoice_resolved" },
  /** A payment link stops taking visits for good (lib/payment-links/deactivate-payment-link.ts). */
  "payment_link.deactivate": {
    permission: "invoices.manage",
    confirmation: STEP_UP,
    audit: "payment_link_deactivated",
  },
  /** A short payment within it counts as paid: the merchant forgoes the difference. */
  "settings.tolerance": {
    permission: "settings.manage",
    confirmation: STEP_UP,
    audit: "underpayment_tolerance_changed",
  },
  /** Where customers' replies go: a stolen session must not redirect them. */
  "settings.support_email": {
    permission: "settings.manage",
    confirmation: STEP_UP,
    audit: "support_email_changed",
  },
} as const satisfies Record<string, SensitiveAction>;

export type SensitiveActionName = keyof typeof SENSITIVE_ACTIONS;
