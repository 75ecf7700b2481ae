import type { Permission } from "@/lib/team/permissions";

/**
 * The dashboard's pages, in the navigation's order, each with the permission its page asks
 * (lib/team/permissions.ts): the navigation shows only what the signed-in role may open. The
 * sandbox page exists in sandbox mode only.
 */
export const DASHBOARD_PAGES: readonly {
  href: string;
  label: string;
  permission: Permission;
  isSandboxOnly?: true;
}[] = [
  { href: "/dashboard", label: "Overview", permission: "dashboard.view" },
  { href: "/dashboard/transactions", label: "Transactions", permission: "dashboard.view" },
  { href: "/dashboard/invoices", label: "Invoices", permission: "dashboard.view" },
  { href: "/dashboard/invoices/new", label: "New invoice", permission: "invoices.manage" },
  { href: "/dashboard/payouts/new", label: "New payout", permission: "payouts.create" },
  { href: "/dashboard/approvals", label: "Approvals", permission: "payouts.approve" },
  { href: "/dashboard/reviews", label: "Reviews", permission: "compliance.review" },
  { href: "/dashboard/keys", label: "API keys", permission: "api_keys.view" },
  { href: "/dashboard/callbacks", label: "Callbacks", permission: "callbacks.manage" },
  { href: "/dashboard/team", label: "Team", permission: "team.view" },
  { href: "/dashboard/audit", label: "Audit trail", permission: "audit.view" },
  { href: "/dashboard/sandbox", label: "Sandbox", permission: "sandbox.use", isSandboxOnly: true },
  { href: "/dashboard/settings", label: "Settings", permission: "account.manage" },
];
