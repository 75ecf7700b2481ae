import type { Page } from "@playwright/test";
import { expect, type Merchant } from "../fixtures";

/** Signs in through the login page, as a merchant would. */
export async function signIn(page: Page, merchant: Merchant) {
  await page.goto("/login");
  await page.getByLabel("E-mail").fill(merchant.email);
  await page.getByLabel("Password").fill(merchant.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  // argon2id takes its time on purpose; on a busy two-core machine a sign-in can outlast 5 s.
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 20_000 });
}
