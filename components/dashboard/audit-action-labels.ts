/** What the audit page calls each action (lib/audit/record-audit-entry.ts AUDIT_ACTIONS). */
export const AUDIT_ACTION_LABELS: Record<string, string> = {
  sign_in: "Signed in",
  sign_in_failed: "Sign-in failed",
  api_key_created: "API key created",
  api_key_revoked: "API key revoked",
  api_key_rolled: "API key rolled",
  api_key_allowlist_changed: "API key IP allowlist changed",
  limit_changed: "Withdrawal limit changed",
  payout_created: "Payout created",
  payout_approved: "Payout approved",
  payout_declined: "Payout declined",
  callback_url_changed: "Callback URL changed",
  two_factor_enabled: "Two-factor turned on",
  two_factor_disabled: "Two-factor turned off",
  password_changed: "Password changed",
};
