import { ROLES, type Role } from "@/lib/team/permissions";

/** What each role may do, in a line (docs/team-and-roles.md's table, lib/team/permissions.ts, in words). */
export const ROLE_SUMMARIES: Record<Role, string> = {
  owner: "everything, including managing owners",
  admin: "everything except managing owners",
  finance: "creates and approves payouts (never their own), invoices",
  developer: "API keys, callbacks, invoices, the sandbox",
  viewer: "looks at balances, transactions and invoices",
};

/** Whether a member of `actor` may manage one of `target`: only an owner manages owners (lib/team/owner-rules.ts enforces it). */
export function mayManageRole(actor: Role, target: Role): boolean {
  return actor === "owner" || target !== "owner";
}

/** The roles a member of `role` may give: only an owner makes owners. */
export const assignableRoles = (role: Role): Role[] => ROLES.filter((option) => mayManageRole(role, option));

/** One line naming what each of `roles` may do, under a role picker. */
export const rolesHint = (roles: Role[]): string =>
  `${roles.map((role) => `${role}: ${ROLE_SUMMARIES[role]}`).join("; ")}.`;
