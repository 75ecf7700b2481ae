import { mkdirSync } from "node:fs";
import { createMerchant, expect, test } from "../fixtures";
import { capture, expectAccessible } from "./page-checks";
import { signIn } from "./sign-in";
import { confirmStepUp, stepUpDialog } from "./step-up";

const SHOTS = "/tmp/shots-step-up";

test("a new API key asks once, in one dialog: a wrong password is refused there, Escape changes nothing", async ({
  page,
}) => {
  const merchant = await createMerchant("Reauth Shop");
  await signIn(page, merchant);
  await page.goto("/dashboard/keys");
  // No password field on the page: the keys page has one dialog for every change.
  await expect(page.locator("input[type=password]:visible")).toHaveCount(0);
  await page.getByLabel("Name for the new key").fill("Till");
  await page.getByRole("button", { name: "Create key" }).click();
  const dialog = stepUpDialog(page);
  await expect(dialog).toBeVisible();
  // Focus moves into the dialog, onto its one field.
  await expect(dialog.getByLabel("Your password")).toBeFocused();
  await page.keyboard.type("not my password");
  await page.keyboard.press("Enter");
  await expect(dialog.getByText("The password is not right.")).toBeVisible();
  await expect(dialog.getByLabel("Your password")).toHaveAttribute("aria-invalid", "true");
  await expectAccessible(page);
  // Escape closes it, and the key is not created.
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(page.getByText("Not changed: the change was not confirmed.")).toBeVisible();
  await expect(page.getByText("Copy the secret now: it will not be shown again.")).toHaveCount(0);

  await page.getByRole("button", { name: "Create key" }).click();
  await confirmStepUp(page, merchant.password);
  await expect(page.getByText("Copy the secret now: it will not be shown again.")).toBeVisible();
});

test("one confirmation covers the key changes that follow it: roll, allowlist and revoke ask nothing more", async ({
  page,
}) => {
  const merchant = await createMerchant("Roll Shop");
  await signIn(page, merchant);
  await page.goto("/dashboard/keys");
  const roll = page.getByRole("form", { name: /^Roll / });
  await roll.getByLabel("Roll: the old key keeps working for").selectOption({ label: "1 hour" });
  await roll.getByRole("button", { name: "Roll key" }).click();
  await confirmStepUp(page, merchant.password);
  await expect(page.getByText(`New key created. ${merchant.apiKey} works until`)).toBeVisible();
  await expect(page.getByText("Copy the secret now: it will not be shown again.")).toBeVisible();

  const allowlist = page.getByRole("form", { name: /^Allowed addresses of / }).first();
  await allowlist.getByLabel("Allowed IP addresses").fill("127.0.0.1");
  await allowlist.getByRole("button", { name: "Save allowed addresses" }).click();
  await expect(page.getByText("only from 127.0.0.1/32")).toBeVisible();

  await page.getByRole("button", { name: "Revoke", exact: true }).first().click();
  const revoke = page.getByRole("form", { name: /^Revoke / });
  await revoke.getByRole("button", { name: "Revoke key" }).click();
  await expect(page.getByText("revoked", { exact: true })).toBeVisible();
  await expect(stepUpDialog(page)).toBeHidden();
});

for (const viewport of [
  { name: "phone", width: 375, height: 800 },
  { name: "desktop", width: 1280, height: 900 },
]) {
  test(`the confirmation dialog fits and reads at ${viewport.width}px, and answers by keyboard alone`, async ({
    page,
  }) => {
    const merchant = await createMerchant("Dialog Shop");
    await page.setViewportSize(viewport);
    await signIn(page, merchant);
    await page.goto("/dashboard/keys");
    await page.getByLabel("Name for the new key").fill("Till");
    await page.getByLabel("Name for the new key").press("Enter");
    const dialog = stepUpDialog(page);
    await expect(dialog).toBeVisible();
    const box = (await dialog.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
    mkdirSync(SHOTS, { recursive: true });
    await capture(page, { path: `${SHOTS}/step-up-dialog-${viewport.name}.png` });
    // Keyboard only: the field has focus; Tab reaches Confirm, then Cancel, and stays in the dialog.
    await page.keyboard.type(merchant.password);
    await page.keyboard.press("Tab");
    await expect(dialog.getByRole("button", { name: "Confirm" })).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
    await page.keyboard.press("Shift+Tab");
    await page.keyboard.press("Enter");
    await expect(dialog).toBeHidden();
    await expect(page.getByText("Copy the secret now: it will not be shown again.")).toBeVisible();
    await capture(page, { path: `${SHOTS}/step-up-done-${viewport.name}.png`, fullPage: true });
  });
}
