"use client";

import { useId, useRef } from "react";
import { IntentLink } from "@/components/dashboard/intent-link";
import type { NavLink } from "@/components/dashboard/nav-entries";
import { LinkPending } from "@/components/dashboard/navigation-progress";

/** The look of a link in a list: marked on its left edge, as in the phone menu. */
export function listLinkClass(isActive: boolean): string {
  return `block border-l-2 px-3 py-2 ${isActive ? "border-indigo-700 font-semibold dark:border-indigo-300" : "border-transparent hover:border-slate-300"}`;
}

/**
 * A group of pages. On a wide screen, a disclosure button with its links below it (the WAI-ARIA
 * "disclosure navigation" pattern: plain links, Tab moves through them, Escape closes and gives
 * focus back to the button, leaving the group closes it). In the phone menu the group is a label
 * over its links, all shown: a menu inside a menu would only cost another tap.
 */
export function NavGroup({
  label,
  links,
  current,
  isOpen,
  onToggle,
  onClose,
}: {
  label: string;
  links: NavLink[];
  current: string | undefined;
  isOpen: boolean;
  onToggle: () => void;
  onClose: () => void;
}) {
  const id = useId();
  const button = useRef<HTMLButtonElement>(null);
  const hasCurrent = links.some((link) => link.href === current);
  return (
    <li
      className="xl:relative"
      onKeyDown={(event) => {
        if (event.key !== "Escape" || !isOpen) return;
        onClose();
        button.current?.focus();
      }}
      onBlur={(event) => {
        if (isOpen && !event.currentTarget.contains(event.relatedTarget as Node | null)) onClose();
      }}
    >
      <span
        id={`${id}-label`}
        className="block px-3 pt-3 pb-1 text-xs font-semibold uppercase tracking-wide text-slate-600 xl:hidden dark:text-slate-400"
      >
        {label}
      </span>
      <button
        ref={button}
        type="button"
        aria-expanded={isOpen}
        aria-controls={`${id}-links`}
        onClick={onToggle}
        className={`hidden items-center gap-1 border-b-2 px-2 py-2 xl:inline-flex ${hasCurrent ? "border-indigo-700 font-semibold dark:border-indigo-300" : "border-transparent hover:border-slate-300"}`}
      >
        {label}
        <svg
          aria-hidden="true"
          viewBox="0 0 12 12"
          className={`size-3 fill-current transition-transform ${isOpen ? "rotate-180" : ""}`}
        >
          <path d="M2 4l4 4 4-4z" />
        </svg>
      </button>
      <ul
        id={`${id}-links`}
        aria-labelledby={`${id}-label`}
        className={`${isOpen ? "xl:block" : "xl:hidden"} pl-3 xl:absolute xl:pl-0 xl:top-full xl:left-0 xl:z-20 xl:min-w-44 xl:rounded-md xl:border xl:border-slate-200 xl:bg-white xl:py-1 xl:shadow-lg xl:dark:border-slate-700 xl:dark:bg-slate-900`}
      >
        {links.map((link) => (
          <li key={link.href}>
            <IntentLink
              href={link.href}
              aria-current={link.href === current ? "page" : undefined}
              onClick={onClose}
              className={listLinkClass(link.href === current)}
            >
              {link.label}
              <LinkPending />
            </IntentLink>
          </li>
        ))}
      </ul>
    </li>
  );
}
