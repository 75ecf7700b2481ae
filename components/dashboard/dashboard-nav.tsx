"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useState } from "react";
import { DASHBOARD_PAGES } from "@/components/dashboard/pages";
import { can, type Role } from "@/lib/team/permissions";

export function DashboardNav({
  merchantName,
  email,
  isSandbox,
  role,
}: {
  merchantName: string;
  email: string;
  isSandbox: boolean;
  role: Role;
}) {
  const pathname = usePathname();
  const [isSigningOut, setSigningOut] = useState(false);
  // next-auth's client is only needed for this one action: loaded on click, not with every page.
  const signOut = async () => {
    setSigningOut(true);
    try {
      const auth = await import("next-auth/react");
      // No redirect from next-auth: it would build the URL from NEXTAUTH_URL, not from this origin.
      await auth.signOut({ redirect: false });
      window.location.assign("/login");
    } catch {
      setSigningOut(false);
    }
  };
  // A page the role may not open is not offered (its URL answers the "not allowed" page anyway).
  const links = DASHBOARD_PAGES.filter(
    (page) => (isSandbox || !page.isSandboxOnly) && can(role, page.permission),
  );
  // The longest matching link is the current page: /dashboard/invoices/new is "New invoice", not "Invoices".
  const current = links
    .filter((link) => (link.href === "/dashboard" ? pathname === link.href : pathname.startsWith(link.href)))
    .sort((a, b) => b.href.length - a.href.length)[0]?.href;
  return (
    <header className="border-b border-slate-200 dark:border-slate-800">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-2 px-4 py-3">
        <div>
          <Link href="/dashboard" className="text-lg font-semibold tracking-tight">
            Kassa
          </Link>
          <span className="ml-2 text-sm text-slate-600 dark:text-slate-400">{merchantName}</span>
        </div>
        <div className="flex items-center gap-3 text-sm">
          <span className="hidden text-slate-600 sm:inline dark:text-slate-400">{email}</span>
          <button type="button" onClick={signOut} disabled={isSigningOut} className="underline">
            {isSigningOut ? "Signing out…" : "Sign out"}
          </button>
        </div>
      </div>
      {/* One scrolling row on a phone; on wider screens the links wrap, so none hides off the edge. */}
      <nav aria-label="Dashboard" className="mx-auto max-w-6xl overflow-x-auto px-4 md:overflow-visible">
        <ul className="flex gap-1 whitespace-nowrap text-sm md:flex-wrap">
          {links.map((link) => {
            const isActive = link.href === current;
            return (
              <li key={link.href}>
                <Link
                  href={link.href}
                  aria-current={isActive ? "page" : undefined}
                  className={`inline-block border-b-2 px-3 py-2 ${isActive ? "border-indigo-700 font-semibold dark:border-indigo-300" : "border-transparent hover:border-slate-300"}`}
                >
                  {link.label}
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>
    </header>
  );
}
