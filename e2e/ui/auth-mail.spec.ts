import AxeBuilder from "@axe-core/playwright";
import { type Page, request as playwrightRequest } from "@playwright/test";
import { quiet } from "../../playwright.config";
import { linkToken, mailText } from "../../tests/support/mail-text";
import { type Mail, startSmtpServer } from "../../tests/support/smtp";
import { waitUntil } from "../../tests/support/wait";
import { createMerchant, expect, signedClient, test } from "../fixtures";
import { watchCsp } from "./csp-guard";

/**
 * Sign-up and password reset the way a merchant goes through them: the form, the e-mail (over real
 * SMTP, from the `quiet` server, whose SMTP_URL points here), the link. One SMTP listener on a fixed
 * port, so the tests of this file run one after another.
 */
test.describe.configure({ mode: "serial" });

const baseURL = quiet.baseURL;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;

test.beforeAll(async () => {
  smtp = await startSmtpServer({ port: quiet.smtpPort });
});
test.afterAll(async () => {
  await smtp.close();
});

/** The next message to `address` whose subject is `subject` (the job queue sends it shortly after the answer). */
function mailTo(address: string, subject: string): Promise<Mail> {
  return waitUntil(
    () => smtp.received.find((mail) => mail.to === address && mailText(mail).includes(`Subject: ${subject}`)),
    { what: `"${subject}" reaches ${address}`, timeoutMs: 20_000 },
  );
}

async function expectAccessible(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(serious.map((v) => `${v.id}: ${v.help} (${v.nodes[0]?.target})`)).toEqual([]);
}

for (const viewport of [
  { name: "phone", width: 375, height: 800 },
  { name: "desktop", width: 1280, height: 900 },
]) {
  test(`sign-up by e-mail link, onboarding and a first API key that works, at ${viewport.width}px`, async ({
    page,
  }, testInfo) => {
    // The finish and onboarding pages are reached only through the link: held to the pages' policy here.
    const csp = await watchCsp(page);
    await page.setViewportSize(viewport);
    const email = `signup-${viewport.name}-${Date.now()}@example.com`;
    await page.goto(`${baseURL}/signup`);
    await page.getByLabel("Business name").fill("Corner Bakery");
    await page.getByLabel("E-mail").fill(email);
    await page.getByLabel("Password").fill("short");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page.getByText("The password must be at least 10 characters.")).toBeVisible();
    await page.getByLabel("Password").fill("a long enough password");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page.getByRole("heading", { name: "Check your e-mail" })).toBeVisible();
    await expectAccessible(page);
    await testInfo.attach(`signup-sent-${viewport.name}`, {
      body: await page.screenshot({ fullPage: true }),
      contentType: "image/png",
    });

    const token = linkToken(await mailTo(email, "Finish creating your Kassa account"));
    await page.goto(`${baseURL}/signup/finish#token=${token}`);
    await expect(page.getByRole("heading", { name: "Your account is ready" })).toBeVisible();
    await expectAccessible(page);
    await page.getByLabel("Password").fill("a long enough password");
    await page.getByRole("button", { name: "Sign in and continue" }).click();
    await expect(page).toHaveURL(/\/onboarding$/);
    await expectAccessible(page);
    await page.getByLabel("Name of your first API key").fill("Till");
    await page.getByRole("button", { name: "Finish and create the key" }).click();
    await expect(page.getByText("Copy the secret now: it will not be shown again.")).toBeVisible();
    const key = (await page.locator("output").nth(0).textContent())!.trim();
    const secret = (await page.locator("output").nth(1).textContent())!.trim();
    const api = await playwrightRequest.newContext({ baseURL });
    const client = signedClient(api, { merchantId: 0, apiKey: key, apiSecret: secret, email, password: "" });
    expect((await client.post("/accounts/list")).status()).toBe(200);

    // The link worked once.
    await page.goto(`${baseURL}/signup/finish#token=${token}`);
    await expect(page.getByRole("heading", { name: "The account was not created" })).toBeVisible();
    await expectAccessible(page);
    csp.expectNone();
  });
}

test("signing up with a taken address looks the same, and its owner is told by e-mail", async ({ page }) => {
  const merchant = await createMerchant("Taken Shop", quiet.dataDir);
  await page.goto(`${baseURL}/signup`);
  await page.getByLabel("Business name").fill("Someone Else");
  await page.getByLabel("E-mail").fill(merchant.email);
  await page.getByLabel("Password").fill("another long password");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("heading", { name: "Check your e-mail" })).toBeVisible();
  const mail = mailText(await mailTo(merchant.email, "You already have a Kassa account"));
  expect(mail).toContain(`${baseURL}/forgot-password`);
});

for (const viewport of [
  { name: "phone", width: 375, height: 800 },
  { name: "desktop", width: 1280, height: 900 },
]) {
  test(`password reset by e-mail: a new password, once, at ${viewport.width}px`, async ({
    page,
  }, testInfo) => {
    const csp = await watchCsp(page);
    await page.setViewportSize(viewport);
    const merchant = await createMerchant(`Reset ${viewport.name}`, quiet.dataDir);
    await page.goto(`${baseURL}/login`);
    await page.getByRole("link", { name: "Forgot your password?" }).click();
    await expect(page.getByRole("heading", { name: "Reset your password" })).toBeVisible();
    await expectAccessible(page);
    await page.getByLabel("E-mail").fill(merchant.email);
    await page.getByRole("button", { name: "Send the link" }).click();
    await expect(page.getByRole("heading", { name: "Check your e-mail" })).toBeVisible();
    await expectAccessible(page);

    const link = /https?:\/\/\S+#token=[A-Za-z0-9_-]+/.exec(
      mailText(await mailTo(merchant.email, "Reset your Kassa password")),
    )![0];
    expect(link.startsWith(`${baseURL}/reset-password#token=`)).toBe(true);
    await page.goto(link);
    await expect(page.getByRole("heading", { name: "Choose a new password" })).toBeVisible();
    // The token left the address bar once the form held it.
    expect(page.url()).toBe(`${baseURL}/reset-password`);
    await expectAccessible(page);
    await page.getByLabel("New password").fill("my new long password");
    await page.getByRole("button", { name: "Set the new password" }).click();
    await expect(page.getByRole("heading", { name: "Password changed" })).toBeVisible();
    await testInfo.attach(`reset-done-${viewport.name}`, {
      body: await page.screenshot({ fullPage: true }),
      contentType: "image/png",
    });

    await page.getByRole("link", { name: "Sign in" }).click();
    await page.getByLabel("E-mail").fill(merchant.email);
    await page.getByLabel("Password").fill("my new long password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);

    await page.goto(link);
    await page.getByLabel("New password").fill("a third long password");
    await page.getByRole("button", { name: "Set the new password" }).click();
    await expect(page.locator("form").getByRole("alert")).toContainText("expired or was already used");
    await expectAccessible(page);
    csp.expectNone();
  });
}

test("a reset asked for an address without an account looks the same and sends nothing", async ({ page }) => {
  const email = `nobody-${Date.now()}@example.com`;
  await page.goto(`${baseURL}/forgot-password`);
  await page.getByLabel("E-mail").fill(email);
  await page.getByRole("button", { name: "Send the link" }).click();
  await expect(page.getByRole("heading", { name: "Check your e-mail" })).toBeVisible();
  // A registered address asked for right after it gets its mail; by then the unknown one would have had its own.
  const merchant = await createMerchant("Reset Witness", quiet.dataDir);
  await page.goto(`${baseURL}/forgot-password`);
  await page.getByLabel("E-mail").fill(merchant.email);
  await page.getByRole("button", { name: "Send the link" }).click();
  await mailTo(merchant.email, "Reset your Kassa password");
  expect(smtp.received.filter((mail) => mail.to === email)).toEqual([]);
});
