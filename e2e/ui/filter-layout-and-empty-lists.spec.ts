import { mkdirSync } from "node:fs";
import type { Locator, Page, TestInfo } from "@playwright/test";
import { createMerchant, expect, test } from "../fixtures";
import { capture, expectAccessible } from "./page-checks";
import { signIn } from "./sign-in";

async function shoot(page: Page, testInfo: TestInfo, name: string) {
  mkdirSync("/tmp/shots-ui", { recursive: true });
  const body = await capture(page, { path: `/tmp/shots-ui/${name}.png`, fullPage: true });
  await testInfo.attach(name, { body, contentType: "image/png" });
}

/** A control a merchant can see: a border drawn around it, as wide as its form on a phone. */
async function expectFullWidthBorderedControl(control: Locator, form: Locator) {
  const look = await control.evaluate((node) => {
    const style = getComputedStyle(node);
    return { border: style.borderTopWidth, color: style.borderTopColor };
  });
  expect(look.border).toBe("1px");
  expect(look.color).not.toBe("rgba(0, 0, 0, 0)");
  const [controlBox, formBox] = [await control.boundingBox(), await form.boundingBox()];
  expect(Math.round(controlBox!.width)).toBe(Math.round(formBox!.width));
}

test.describe("dashboard pages at 375 px", () => {
  test("the audit trail's filter shows its controls, each the form's width", async ({ page }, testInfo) => {
    const merchant = await createMerchant("Audit Look Shop");
    await page.setViewportSize({ width: 375, height: 800 });
    await signIn(page, merchant);
    await page.goto("/dashboard/audit");
    const form = page.locator("form").filter({ has: page.getByLabel("Who (contains)") });
    for (const label of ["Action", "Who (contains)", "From", "Before"])
      await expectFullWidthBorderedControl(form.getByLabel(label), form);
    await expectAccessible(page);
    await shoot(page, testInfo, "audit-filter-phone");
  });

  test("the invoice list says there is none yet, and its filter fields span the screen", async ({
    page,
  }, testInfo) => {
    const merchant = await createMerchant("Empty List Shop");
    await page.setViewportSize({ width: 375, height: 800 });
    await signIn(page, merchant);
    await page.goto("/dashboard/invoices");
    await expect(
      page.getByText("No invoices yet: create one here or with the API's invoices/create."),
    ).toBeVisible();
    const form = page.getByRole("form", { name: "Filter invoices" });
    for (const label of ["Search (title or your id starts with)", "Status", "Exception"])
      await expectFullWidthBorderedControl(form.getByLabel(label), form);
    await expectAccessible(page);
    await shoot(page, testInfo, "invoices-empty-phone");
    await page.goto("/dashboard/invoices?status=confirmed");
    await expect(page.getByText("No invoices match.")).toBeVisible();
  });
});
