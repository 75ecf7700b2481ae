import { describe, expect, it } from "vitest";
import { currentHref, type NavEntry, navEntries } from "@/components/dashboard/nav-entries";
import { DASHBOARD_PAGES } from "@/components/dashboard/pages";
import { can, ROLES } from "@/lib/team/permissions";

/** What a merchant sees in the row: a link's label, or a group's label with its links'. */
const shown = (entries: NavEntry[]) =>
  entries.map((entry) =>
    entry.kind === "link"
      ? entry.link.label
      : `${entry.label}: ${entry.links.map((l) => l.label).join(", ")}`,
  );

describe("navEntries", () => {
  it("gives an owner in the sandbox every page, payouts and the rarer ones in groups at their first page's place", () => {
    expect(shown(navEntries({ role: "owner", isSandbox: true }))).toEqual([
      "Overview",
      "Transactions",
      "Invoices",
      "New invoice",
      "Payment links",
      "Payouts: New payout, Bulk payouts",
      "Approvals",
      "Reviews",
      "Developers: API keys, Callbacks, Sandbox",
      "Administration: Team, Audit trail",
      "Settings",
    ]);
  });

  it("leaves the sandbox out in production", () => {
    expect(shown(navEntries({ role: "developer", isSandbox: false }))).toEqual([
      "Overview",
      "Transactions",
      "Invoices",
      "New invoice",
      "Payment links",
      "Developers: API keys, Callbacks",
      "Settings",
    ]);
  });

  it("shows a viewer its reading pages only, with no group", () => {
    expect(shown(navEntries({ role: "viewer", isSandbox: true }))).toEqual([
      "Overview",
      "Transactions",
      "Invoices",
      "Payment links",
      "Settings",
    ]);
  });

  it("offers each role every page it may open, once, and never a menu of one", () => {
    for (const role of ROLES) {
      for (const isSandbox of [true, false]) {
        const entries = navEntries({ role, isSandbox });
        const labels = entries.flatMap((e) =>
          e.kind === "link" ? [e.link.label] : e.links.map((l) => l.label),
        );
        const allowed = DASHBOARD_PAGES.filter(
          (p) => can(role, p.permission) && (isSandbox || !p.isSandboxOnly),
        ).map((p) => p.label);
        expect(labels.sort()).toEqual(allowed.sort());
        for (const entry of entries)
          if (entry.kind === "group") expect(entry.links.length).toBeGreaterThan(1);
      }
    }
  });
});

describe("currentHref", () => {
  const entries = navEntries({ role: "owner", isSandbox: true });
  it("is the longest matching page, inside a group too", () => {
    expect(currentHref(entries, "/dashboard")).toBe("/dashboard");
    expect(currentHref(entries, "/dashboard/invoices/new")).toBe("/dashboard/invoices/new");
    expect(currentHref(entries, "/dashboard/invoices/42")).toBe("/dashboard/invoices");
    expect(currentHref(entries, "/dashboard/audit")).toBe("/dashboard/audit");
    expect(currentHref(entries, "/dashboard/payouts/bulk/12")).toBe("/dashboard/payouts/bulk");
  });
});
