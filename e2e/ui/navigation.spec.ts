import { mkdirSync } from "node:fs";
import type { Page, TestInfo } from "@playwright/test";
import { DASHBOARD_PAGES } from "../../components/dashboard/pages";
import { createMerchant, expect, test } from "../fixtures";
import { dashboardNav, expand, navLink } from "./dashboard-nav";
import { capture, expectAccessible, expectNoSidewaysScroll } from "./page-checks";
import { signIn } from "./sign-in";

const SHOTS = "/tmp/shots-ui";

async function shoot(page: Page, testInfo: TestInfo, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  const body = await capture(page, { path: `${SHOTS}/${name}.png`, fullPage: true });
  await testInfo.attach(name, { body, contentType: "image/png" });
}

/** The labels of every link the navigation holds, shown or folded away in a menu. */
function allLinkLabels(page: Page) {
  return dashboardNav(page).getByRole("link", { includeHidden: true }).allTextContents();
}

test.describe("dashboard navigation", () => {
  test("one row at 1280 px; the rarer pages in menus that work by keyboard; every page the owner may open is reached", async ({
    page,
  }, testInfo) => {
    const merchant = await createMerchant("Nav Wide Shop");
    await page.setViewportSize({ width: 1280, height: 900 });
    await signIn(page, merchant);
    const nav = dashboardNav(page);
    await expect(nav.getByRole("button", { name: "Menu" })).toBeHidden();
    // One row: every entry (a link or a group's button) starts at the same height.
    const tops = await nav
      .locator(":scope > ul > li")
      .evaluateAll((items) => items.map((item) => Math.round(item.getBoundingClientRect().top)));
    expect(tops.length).toBeGreaterThan(5);
    expect(new Set(tops).size, `entries at heights ${tops.join(", ")}`).toBe(1);
    // The row fits its column, and so the page: nothing past the right edge.
    const row = await nav
      .locator(":scope > ul")
      .evaluate((list) => ({ needed: list.scrollWidth, column: list.clientWidth }));
    expect(row.needed, `the row needs ${row.needed} px of ${row.column}`).toBeLessThanOrEqual(row.column);
    await expectNoSidewaysScroll(page);
    // A desktop window narrower than the row needs gets the one menu instead, and no sideways scroll.
    for (const width of [1024, 1180]) {
      await page.setViewportSize({ width, height: 900 });
      await expect(nav.getByRole("button", { name: "Menu" })).toBeVisible();
      await expectNoSidewaysScroll(page);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    // An owner in the sandbox may open every page: none is left out, each appears once.
    expect((await allLinkLabels(page)).sort()).toEqual(DASHBOARD_PAGES.map((p) => p.label).sort());
    await expect(nav.getByRole("link", { name: "Overview" })).toHaveAttribute("aria-current", "page");

    // A group by keyboard: Enter opens it, Tab walks its links, Escape closes it and gives focus back.
    const developers = nav.getByRole("button", { name: "Developers" });
    await expect(developers).toHaveAttribute("aria-expanded", "false");
    await expect(nav.getByRole("link", { name: "API keys" })).toBeHidden();
    await expand(developers);
    await expect(nav.getByRole("link", { name: "API keys" })).toBeVisible();
    await expectAccessible(page);
    await shoot(page, testInfo, "nav-group-open-desktop");
    await developers.focus();
    await page.keyboard.press("Tab");
    await expect(nav.getByRole("link", { name: "API keys" })).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(developers).toHaveAttribute("aria-expanded", "false");
    await expect(developers).toBeFocused();
    // Opened with Enter; Tab past its last link leaves the group, which closes behind it.
    await page.keyboard.press("Enter");
    await expect(developers).toHaveAttribute("aria-expanded", "true");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    await expect(nav.getByRole("link", { name: "Sandbox" })).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(developers).toHaveAttribute("aria-expanded", "false");
    await expect(nav.getByRole("button", { name: "Administration" })).toBeFocused();

    // Every page through the navigation, marked as the current one when there.
    for (const { href, label } of DASHBOARD_PAGES) {
      await (await navLink(page, label)).click();
      await expect(page).toHaveURL(new RegExp(`${href}$`));
      const link = nav.getByRole("link", { name: label, exact: true, includeHidden: true });
      await expect(link).toHaveAttribute("aria-current", "page");
      await expect(nav.locator('[aria-current="page"]')).toHaveCount(1);
      // Reaching the page closed the menu it was chosen from.
      await expect(nav.locator('button[aria-expanded="true"]')).toHaveCount(0);
    }
    // The group holding the current page is marked too, so the row says where the merchant is.
    await page.goto("/dashboard/audit");
    await expect(nav.getByRole("button", { name: "Administration" })).toHaveClass(/border-indigo-700/);
    await expect(nav.getByRole("button", { name: "Developers" })).toHaveClass(/border-transparent/);
    await expectAccessible(page);
    await shoot(page, testInfo, "nav-audit-desktop");
  });

  test("at 375 px one menu holds every page, grouped, and closes by Escape or by going to a page", async ({
    page,
  }, testInfo) => {
    const merchant = await createMerchant("Nav Phone Shop");
    await page.setViewportSize({ width: 375, height: 800 });
    await signIn(page, merchant);
    const nav = dashboardNav(page);
    const menu = nav.getByRole("button", { name: "Menu" });
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    // Closed, the menu keeps the page itself in view: no link row pushing it off the side.
    await expect(nav.getByRole("link", { name: "Overview" })).toBeHidden();
    await expectNoSidewaysScroll(page);
    await expectAccessible(page);
    await shoot(page, testInfo, "nav-closed-phone");

    await expand(menu);
    // Every page is one tap away: the groups' pages are listed under their group's name.
    for (const { label } of DASHBOARD_PAGES)
      await expect(nav.getByRole("link", { name: label, exact: true })).toBeVisible();
    await expect(nav.getByRole("list", { name: "Developers" })).toBeVisible();
    await expect(nav.getByRole("list", { name: "Administration" })).toContainText("Audit trail");
    await expect(nav.getByRole("link", { name: "Overview" })).toHaveAttribute("aria-current", "page");
    await expectNoSidewaysScroll(page);
    await expectAccessible(page);
    await shoot(page, testInfo, "nav-open-phone");

    await page.keyboard.press("Tab");
    await page.keyboard.press("Escape");
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    await expect(menu).toBeFocused();
    await expect(nav.getByRole("link", { name: "Overview" })).toBeHidden();

    await expand(menu);
    await nav.getByRole("link", { name: "Audit trail" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Audit trail" })).toBeVisible();
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    await expect(nav.getByRole("link", { name: "Audit trail", includeHidden: true })).toHaveAttribute(
      "aria-current",
      "page",
    );
    await expectNoSidewaysScroll(page);
  });
});
