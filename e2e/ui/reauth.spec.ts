import AxeBuilder from "@axe-core/playwright";
import { createMerchant, expect, test } from "../fixtures";
import { signIn } from "./sign-in";

test("a new API key asks for the password again; a wrong one is refused under its field", async ({
  page,
}) => {
  const merchant = await createMerchant("Reauth Shop");
  await signIn(page, merchant);
  await page.goto("/dashboard/keys");
  // Each key's roll asks too: the new key's form is the one named so.
  const password = page.getByRole("form", { name: "New API key" }).getByLabel("Your password, to confirm");
  await page.getByLabel("Name for the new key").fill("Till");
  await page.getByRole("button", { name: "Create key" }).click();
  await expect(page.getByText("Type your password to confirm.")).toBeVisible();
  await expect(password).toHaveAttribute("aria-invalid", "true");

  await password.fill("not my password");
  await page.getByRole("button", { name: "Create key" }).click();
  await expect(page.getByText("The password is not right.")).toBeVisible();
  await expect(page.getByText("Copy the secret now: it will not be shown again.")).toHaveCount(0);
  const serious = (await new AxeBuilder({ page }).analyze()).violations.filter(
    (v) => v.impact === "serious" || v.impact === "critical",
  );
  expect(serious.map((v) => v.id)).toEqual([]);

  await password.fill(merchant.password);
  await page.getByRole("button", { name: "Create key" }).click();
  await expect(page.getByText("Copy the secret now: it will not be shown again.")).toBeVisible();
  // The confirmation was for that key only.
  await expect(password).toHaveValue("");
});

test("rolling a key asks for the password again; the new secret shows only after it", async ({ page }) => {
  const merchant = await createMerchant("Roll Shop");
  await signIn(page, merchant);
  await page.goto("/dashboard/keys");
  const roll = page.getByRole("form", { name: /^Roll / });
  await roll.getByLabel("Roll: the old key keeps working for").selectOption({ label: "1 hour" });
  await roll.getByRole("button", { name: "Roll key" }).click();
  await expect(roll.getByText("Type your password to confirm.")).toBeVisible();
  await roll.getByLabel("Your password, to confirm").fill("not my password");
  await roll.getByRole("button", { name: "Roll key" }).click();
  await expect(roll.getByText("The password is not right.")).toBeVisible();
  await expect(page.getByText("New key created.")).toHaveCount(0);

  await roll.getByLabel("Your password, to confirm").fill(merchant.password);
  await roll.getByRole("button", { name: "Roll key" }).click();
  await expect(page.getByText(`New key created. ${merchant.apiKey} works until`)).toBeVisible();
  await expect(page.getByText("Copy the secret now: it will not be shown again.")).toBeVisible();
});

test("revoking a key and changing its allowlist ask for the password again", async ({ page }) => {
  const merchant = await createMerchant("Revoke Shop");
  await signIn(page, merchant);
  await page.goto("/dashboard/keys");
  const allowlist = page.getByRole("form", { name: /^Allowed addresses of / }).first();
  await allowlist.getByLabel("Allowed IP addresses").fill("127.0.0.1");
  await allowlist.getByLabel("Your password, to confirm").fill("not my password");
  await allowlist.getByRole("button", { name: "Save allowed addresses" }).click();
  await expect(allowlist.getByText("The password is not right.")).toBeVisible();
  await allowlist.getByLabel("Your password, to confirm").fill(merchant.password);
  await allowlist.getByRole("button", { name: "Save allowed addresses" }).click();
  await expect(page.getByText("only from 127.0.0.1/32")).toBeVisible();

  await page.getByRole("button", { name: "Revoke", exact: true }).click();
  const revoke = page.getByRole("form", { name: /^Revoke / });
  await revoke.getByRole("button", { name: "Revoke key" }).click();
  await expect(revoke.getByText("Type your password to confirm.")).toBeVisible();
  await revoke.getByLabel("Your password, to confirm").fill("not my password");
  await revoke.getByRole("button", { name: "Revoke key" }).click();
  await expect(revoke.getByText("The password is not right.")).toBeVisible();
  await expect(page.getByText("revoked", { exact: true })).toHaveCount(0);
  await revoke.getByLabel("Your password, to confirm").fill(merchant.password);
  await revoke.getByRole("button", { name: "Revoke key" }).click();
  await expect(page.getByText("revoked", { exact: true })).toBeVisible();
});
