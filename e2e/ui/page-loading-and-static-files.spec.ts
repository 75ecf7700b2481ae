import { mkdirSync } from "node:fs";
import type { Page, TestInfo } from "@playwright/test";
import { createMerchant, expect, test } from "../fixtures";
import { navLink } from "./dashboard-nav";
import { capture, expectAccessible } from "./page-checks";
import { signIn } from "./sign-in";

/** What a merchant meets in the first hour besides signing up: page loads, the API reference, static files. */

const VIEWPORTS = [
  { name: "phone", width: 375, height: 800 },
  { name: "desktop", width: 1280, height: 900 },
];

async function shoot(page: Page, testInfo: TestInfo, name: string) {
  mkdirSync("/tmp/shots-firstrun", { recursive: true });
  const body = await capture(page, { path: `/tmp/shots-firstrun/${name}.png`, fullPage: true });
  await testInfo.attach(name, { body, contentType: "image/png" });
}

for (const viewport of VIEWPORTS) {
  test.describe(`at ${viewport.width}px`, () => {
    test.beforeEach(async ({ page }) => {
      await page.setViewportSize(viewport);
    });

    test("a dashboard page opened from the navigation shows a progress bar until it is there", async ({
      page,
    }, testInfo) => {
      const merchant = await createMerchant(`Slow Network ${viewport.name}`);
      await signIn(page, merchant);
      // The next page's data is held back until the bar has been seen: a slow network, on demand.
      let release!: () => void;
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      await page.route(
        (url) => url.pathname === "/dashboard/audit",
        async (route) => {
          const headers = route.request().headers();
          if (headers.rsc === "1" && !headers["next-router-prefetch"]) await held;
          await route.continue();
        },
      );
      await (await navLink(page, "Audit trail")).click();
      const bar = page.getByRole("progressbar", { name: "Loading the page" });
      await expect(bar).toBeVisible();
      const box = await bar.boundingBox();
      expect(box!.y).toBe(0);
      expect(Math.round(box!.width)).toBe(viewport.width);
      await expectAccessible(page);
      await shoot(page, testInfo, `loading-bar-${viewport.name}`);
      release();
      await expect(page.getByRole("heading", { level: 1, name: "Audit trail" })).toBeVisible();
      await expect(bar).toHaveCount(0);
    });
  });
}

test("static files come from public/: the icon and robots.txt", async ({ page, request }) => {
  await page.goto("/");
  const icon = await page.locator('link[rel="icon"]').getAttribute("href");
  expect(icon).toBe("/icon.svg");
  const svg = await request.get(icon!);
  expect(svg.status()).toBe(200);
  expect(svg.headers()["content-type"]).toContain("image/svg+xml");
  expect(await svg.text()).toContain("<title>Kassa</title>");
  const robots = await request.get("/robots.txt");
  expect(robots.status()).toBe(200);
  expect(robots.headers()["content-type"]).toContain("text/plain");
  expect(await robots.text()).toContain("Disallow: /dashboard");
});
