/** The dashboard's pages, in the navigation's order; the sandbox page exists in sandbox mode only. */
export const DASHBOARD_PAGES = [
  { href: "/dashboard", label: "Overview" },
  { href: "/dashboard/transactions", label: "Transactions" },
  { href: "/dashboard/invoices", label: "Invoices" },
  { href: "/dashboard/invoices/new", label: "New invoice" },
  { href: "/dashboard/payouts/new", label: "New payout" },
  { href: "/dashboard/approvals", label: "Approvals" },
  { href: "/dashboard/reviews", label: "Reviews" },
  { href: "/dashboard/keys", label: "API keys" },
  { href: "/dashboard/callbacks", label: "Callbacks" },
  { href: "/dashboard/audit", label: "Audit trail" },
  { href: "/dashboard/sandbox", label: "Sandbox", isSandboxOnly: true },
  { href: "/dashboard/settings", label: "Settings" },
] as const;
