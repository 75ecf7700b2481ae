/**
 * Who may do what in a merchant's dashboard: the one table every dashboard route handler
 * (lib/api/with-session.ts), every page (lib/auth/session.ts requireSession) and the navigation
 * read. No server-only marker: the navigation (a client component) hides what a role cannot use.
 * docs/team-and-roles.md shows the same table; tests/integration/team-role-matrix.test.ts
 * holds every dashboard route to it.
 */

/** The roles of a team, most powerful first. */
export const ROLES = ["owner", "admin", "finance", "developer", "viewer"] as const;

export type Role = (typeof ROLES)[number];

const EVERYONE = ROLES;

/**
 * Each action and the roles allowed it. Admins can do everything an owner can except managing
 * owners (enforced where owners are involved: lib/team) and choosing the callback key. Payout approval also never lets the
 * creator approve their own (lib/withdrawals/decide-withdrawal.ts).
 */
export const PERMISSIONS = {
  /** Balances, transactions, invoices, callbacks' delivery log, pending payouts: reading only. */
  "dashboard.view": EVERYONE,
  /** The user's own password and second factor. */
  "account.manage": EVERYONE,
  "invoices.manage": ["owner", "admin", "finance", "developer"],
  "payouts.create": ["owner", "admin", "finance"],
  "payouts.approve": ["owner", "admin", "finance"],
  "limits.manage": ["owner", "admin"],
  "api_keys.view": ["owner", "admin", "developer"],
  "api_keys.manage": ["owner", "admin", "developer"],
  "callbacks.manage": ["owner", "admin", "developer"],
  /** Choosing the key that signs the dashboard's callbacks: the secret a merchant's backend trusts. */
  "callbacks.choose_key": ["owner"],
  "settings.manage": ["owner", "admin"],
  "audit.view": ["owner", "admin"],
  "team.view": ["owner", "admin"],
  "team.manage": ["owner", "admin"],
  "compliance.review": ["owner", "admin", "finance"],
  "sandbox.use": ["owner", "admin", "developer"],
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof PERMISSIONS;

/** Whether a role may take an action. */
export function can(role: Role, permission: Permission): boolean {
  return (PERMISSIONS[permission] as readonly Role[]).includes(role);
}

/** The message a refused action answers (a route's 403, the dashboard's "not allowed" page). */
export function notAllowedMessage(role: Role): string {
  return `Your role (${role}) does not allow this. Ask an owner or an admin of your team.`;
}

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}
