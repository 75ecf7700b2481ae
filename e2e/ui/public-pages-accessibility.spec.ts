import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";

async function expectNoSeriousA11yViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(serious.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
}

const viewports = [
  { name: "phone", width: 375, height: 812 },
  { name: "desktop", width: 1280, height: 900 },
];

for (const viewport of viewports) {
  test(`home and API reference render and are accessible (${viewport.name})`, async ({ page }, testInfo) => {
    await page.setViewportSize(viewport);
    await page.goto("/");
    await expect(
      page.getByRole("heading", { level: 1, name: "Crypto payments for merchants" }),
    ).toBeVisible();
    await expect(page.getByText("sandbox", { exact: false }).first()).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await testInfo.attach(`home-${viewport.name}`, {
      body: await page.screenshot({ fullPage: true }),
      contentType: "image/png",
    });

    await page.getByRole("link", { name: "Read the API reference" }).click();
    await expect(page).toHaveURL(/\/docs\/api$/);
    await expect(page.getByRole("heading", { name: "Signing requests" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "POST /api/v2/accounts/list" })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await testInfo.attach(`api-reference-${viewport.name}`, {
      body: await page.screenshot({ fullPage: true }),
      contentType: "image/png",
    });
  });
}

test("the skip link reaches the main content by keyboard", async ({ page }) => {
  await page.goto("/");
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/#main$/);
});
