"use client";

import { usePathname } from "next/navigation";
import { useRef, useState } from "react";
import { IntentLink } from "@/components/dashboard/intent-link";
import { currentHref, navEntries } from "@/components/dashboard/nav-entries";
import { listLinkClass, NavGroup } from "@/components/dashboard/nav-group";
import { LinkPending, NavigationProgress } from "@/components/dashboard/navigation-progress";
import type { Role } from "@/lib/team/permissions";

/** The phone menu's own name among the open menus (a group's is its label). */
const PAGES_MENU = "pages";

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
  // The open menu, for the page it was opened on: reaching another page closes it, with no effect.
  const [opened, setOpened] = useState<{ menu: string; pathname: string } | null>(null);
  const openMenu = opened?.pathname === pathname ? opened.menu : null;
  const toggle = (menu: string) => setOpened(openMenu === menu ? null : { menu, pathname });
  const close = () => setOpened(null);
  const menuButton = useRef<HTMLButtonElement>(null);
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
  const entries = navEntries({ role, isSandbox });
  const current = currentHref(entries, pathname);
  const isPagesOpen = openMenu === PAGES_MENU;
  return (
    <NavigationProgress>
      <header className="border-b border-slate-200 dark:border-slate-800">
        <div className="mx-auto flex max-w-6xl items-center justify-between gap-3 px-4 py-3">
          <div className="min-w-0">
            <IntentLink href="/dashboard" className="text-lg font-semibold tracking-tight">
              Kassa
            </IntentLink>
            <span className="ml-2 break-words text-sm text-slate-600 dark:text-slate-400">
              {merchantName}
            </span>
          </div>
          <div className="flex shrink-0 items-center gap-3 text-sm">
            <span className="hidden text-slate-600 sm:inline dark:text-slate-400">{email}</span>
            <button type="button" onClick={signOut} disabled={isSigningOut} className="underline">
              {isSigningOut ? "Signing out…" : "Sign out"}
            </button>
          </div>
        </div>
        {/* One row from 1280 px, the rarer pages in groups (narrower, the row would not fit the column
          and the page would scroll sideways); below, every page in one menu that pushes the page
          down, so nothing hides off the edge of the screen. */}
        <nav
          aria-label="Dashboard"
          className="mx-auto max-w-6xl px-4 pb-2 text-sm xl:pb-0"
          onKeyDown={(event) => {
            if (event.key !== "Escape" || !isPagesOpen) return;
            close();
            menuButton.current?.focus();
          }}
        >
          <button
            ref={menuButton}
            type="button"
            aria-expanded={isPagesOpen}
            aria-controls="dashboard-pages"
            onClick={() => toggle(PAGES_MENU)}
            className="inline-flex items-center gap-2 rounded-md border border-slate-300 px-3 py-1.5 font-medium xl:hidden dark:border-slate-600"
          >
            <svg aria-hidden="true" viewBox="0 0 16 16" className="size-4 fill-current">
              <path
                d={
                  isPagesOpen
                    ? "M3.5 2.5l10 10-1 1-10-10zM12.5 2.5l1 1-10 10-1-1z"
                    : "M2 3h12v2H2zM2 7h12v2H2zM2 11h12v2H2z"
                }
              />
            </svg>
            Menu
          </button>
          <ul
            id="dashboard-pages"
            className={`${isPagesOpen ? "block" : "hidden"} mt-2 xl:mt-0 xl:flex xl:items-center xl:gap-1 xl:whitespace-nowrap`}
          >
            {entries.map((entry) => {
              if (entry.kind === "group")
                return (
                  <NavGroup
                    key={entry.label}
                    label={entry.label}
                    links={entry.links}
                    current={current}
                    isOpen={openMenu === entry.label}
                    onToggle={() => toggle(entry.label)}
                    onClose={close}
                  />
                );
              const isActive = entry.link.href === current;
              return (
                <li key={entry.link.href}>
                  <IntentLink
                    href={entry.link.href}
                    aria-current={isActive ? "page" : undefined}
                    onClick={close}
                    className={`${listLinkClass(isActive)} xl:inline-block xl:border-b-2 xl:border-l-0 xl:px-2`}
                  >
                    {entry.link.label}
                    <LinkPending />
                  </IntentLink>
                </li>
              );
            })}
          </ul>
        </nav>
      </header>
    </NavigationProgress>
  );
}
