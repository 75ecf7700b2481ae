import { DASHBOARD_PAGES, type DashboardPageGroup } from "@/components/dashboard/pages";
import { can, type Role } from "@/lib/team/permissions";

export type NavLink = { href: string; label: string };

/** What the navigation shows, in order: a page's link, or a group's menu of two or more links. */
export type NavEntry =
  | { kind: "link"; link: NavLink }
  | { kind: "group"; label: DashboardPageGroup; links: NavLink[] };

/**
 * The pages a role may open (a page it may not is not offered: its URL answers "not allowed"
 * anyway), gathered into their groups at the place of each group's first page. A group left with
 * one page for this role is that page's plain link: a menu of one only costs a click.
 */
export function navEntries({ role, isSandbox }: { role: Role; isSandbox: boolean }): NavEntry[] {
  const pages = DASHBOARD_PAGES.filter(
    (page) => (isSandbox || !page.isSandboxOnly) && can(role, page.permission),
  );
  const entries: NavEntry[] = [];
  for (const page of pages) {
    const link = { href: page.href, label: page.label };
    if (!page.group) {
      entries.push({ kind: "link", link });
      continue;
    }
    const group = entries.find((entry) => entry.kind === "group" && entry.label === page.group);
    if (group?.kind === "group") group.links.push(link);
    else entries.push({ kind: "group", label: page.group, links: [link] });
  }
  return entries.map((entry) =>
    entry.kind === "group" && entry.links.length === 1 ? { kind: "link", link: entry.links[0]! } : entry,
  );
}

/** The current page: the longest matching link, so /dashboard/invoices/new is "New invoice", not "Invoices". */
export function currentHref(entries: NavEntry[], pathname: string): string | undefined {
  return entries
    .flatMap((entry) => (entry.kind === "link" ? [entry.link] : entry.links))
    .filter((link) => (link.href === "/dashboard" ? pathname === link.href : pathname.startsWith(link.href)))
    .sort((a, b) => b.href.length - a.href.length)[0]?.href;
}
