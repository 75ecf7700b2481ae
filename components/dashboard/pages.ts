import type { Permission } from "@/lib/team/permissions";

/**
 * A menu of the navigation holding pages a merchant opens less often, so the row stays one line at
 * 1280 px (components/dashboard/dashboard-nav.tsx). A role offered one page of a group sees it as
 * a plain link.
 */
export type DashboardPageGroup = "Payouts" | "Developers" | "Administration";

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
  group?: DashboardPageGroup;
}[] = [
  { href: "/dashboard", label: "Overview", permission: "dashboard.view" },
  { href: "/dashboard/transactions", label: "Transactions", permission: "dashboard.view" },
  { href: "/dashboard/invoices", label: "Invoices", permission: "dashboard.view" },
  { href: "/dashboard/invoices/new", label: "New invoice", permission: "invoices.manage" },
  { href: "/dashboard/payment-links", label: "Payment links", permission: "dashboard.view" },
  { href: "/dashboard/payouts/new", label: "New payout", permission: "payouts.create", group: "Payouts" },
  { href: "/dashboard/payouts/bulk", label: "Bulk payouts", permission: "payouts.create", group: "Payouts" },
  { href: "/dashboard/approvals", label: "Approvals", permission: "payouts.approve" },
  { href: "/dashboard/reviews", label: "Reviews", permission: "compliance.review" },
  { href: "/dashboard/keys", label: "API keys", permission: "api_keys.view", group: "Developers" },
  { href: "/dashboard/callbacks", label: "Callbacks", permission: "callbacks.manage", group: "Developers" },
  { href: "/dashboard/team", label: "Team", permission: "team.view", group: "Administration" },
  { href: "/dashboard/audit", label: "Audit trail", permission: "audit.view", group: "Administration" },
  {
    href: "/dashboard/sandbox",
    label: "Sandbox",
    permission: "sandbox.use",
    isSandboxOnly: true,
    group: "Developers",
  },
  { href: "/dashboard/settings", label: "Settings", permission: "account.manage" },
];
