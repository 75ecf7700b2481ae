import type { Locator, Page } from "@playwright/test";
import { DASHBOARD_PAGES } from "../../components/dashboard/pages";
import { expect } from "../fixtures";
import { expectHydrated } from "./csp-guard";

/** The dashboard's navigation landmark. */
export function dashboardNav(page: Page): Locator {
  return page.getByRole("navigation", { name: "Dashboard" });
}

/** Opens a disclosure button (once React has taken it over: an earlier click would be lost). */
export async function expand(button: Locator) {
  await expectHydrated(button);
  if ((await button.getAttribute("aria-expanded")) !== "true") await button.click();
  await expect(button).toHaveAttribute("aria-expanded", "true");
}

/**
 * A page's link in the navigation, reached as a merchant reaches it: through the phone menu on a
 * narrow screen, through its group's menu (components/dashboard/pages.ts) on a wide one.
 */
export async function navLink(page: Page, label: string): Promise<Locator> {
  const nav = dashboardNav(page);
  const menu = nav.getByRole("button", { name: "Menu" });
  if (await menu.isVisible()) await expand(menu);
  const group = DASHBOARD_PAGES.find((p) => p.label === label)?.group;
  const groupButton = group && nav.getByRole("button", { name: group, exact: true });
  if (groupButton && (await groupButton.isVisible())) await expand(groupButton);
  const link = nav.getByRole("link", { name: label, exact: true });
  await expect(link).toBeVisible();
  return link;
}
