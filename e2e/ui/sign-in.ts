import type { Page } from "@playwright/test";
import { dashboardSession, expect, type Merchant } from "../fixtures";

/**
 * Signs the page in and opens the dashboard: the credentials go through next-auth's sign-in, as the
 * login form sends them, and the browser gets the session cookie that answer sets. The login form
 * itself is tested through the page where it is the subject (first-run, auth-mail, dashboard
 * specs); going through it before every other test cost two page loads and a hydration each, and
 * a click before hydration sometimes went nowhere on a busy machine.
 */
export async function signIn(page: Page, merchant: Merchant) {
  const session = await dashboardSession(merchant);
  await page.context().addCookies((await session.storageState()).cookies);
  await session.dispose();
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/dashboard$/);
}
