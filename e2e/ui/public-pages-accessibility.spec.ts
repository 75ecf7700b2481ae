import { expect, type Page, test } from "@playwright/test";
import { checkBothWidths, DESKTOP, PHONE } from "./widths";

/**
 * The API reference fits the screen: its code blocks scroll inside their own labelled box, which
 * the keyboard reaches (Tab) and scrolls (arrow keys) where the code is wider than the screen.
 */
async function expectCodeBlocksScrollInTheirOwnBox(page: Page, viewportWidth: number) {
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
  ).toBeLessThanOrEqual(0);
  for (const label of ["Signing example in JavaScript", "Verifying a callback in JavaScript"]) {
    const region = page.getByRole("region", { name: label });
    const box = (await region.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(viewportWidth);
    await region.focus();
    await expect(region).toBeFocused();
    const widths = await region.evaluate((node) => ({ scroll: node.scrollWidth, client: node.clientWidth }));
    if (widths.scroll > widths.client) {
      await page.keyboard.press("ArrowRight");
      await expect.poll(() => region.evaluate((node) => node.scrollLeft)).toBeGreaterThan(0);
    }
  }
}

test("home and API reference render and are accessible at both widths; the code blocks scroll in their own box", async ({
  page,
}, testInfo) => {
  await page.setViewportSize(PHONE);
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1, name: "Crypto payments for merchants" })).toBeVisible();
  await expect(page.getByText("sandbox", { exact: false }).first()).toBeVisible();
  await checkBothWidths(page, testInfo, "home");

  await page.getByRole("link", { name: "Read the API reference" }).click();
  await expect(page).toHaveURL(/\/docs\/api$/);
  await expect(page.getByRole("heading", { name: "Signing requests" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "POST /api/v2/accounts/list" })).toBeVisible();
  for (const viewport of [PHONE, DESKTOP]) {
    await page.setViewportSize(viewport);
    await expectCodeBlocksScrollInTheirOwnBox(page, viewport.width);
  }
  await checkBothWidths(page, testInfo, "api-reference");
});

test("the skip link reaches the main content by keyboard", async ({ page }) => {
  await page.goto("/");
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/#main$/);
});
