import type { Locator, Page } from "@playwright/test";
import { createMerchant, expect, test } from "../fixtures";
import { expectHydrated } from "./csp-guard";
import { signIn } from "./sign-in";

/**
 * Holds the page's scripts back until the returned function is called: the page shows as the
 * server rendered it and a user can already type and choose, as on a slow phone, while React has
 * not taken the page over yet.
 */
async function holdScripts(page: Page): Promise<() => void> {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/_next/static/chunks/*.js", async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

/**
 * Signs a new merchant in, then opens `path` with its scripts held: returns when the page shows as
 * the server rendered it (not waiting for the load event, which waits for the held scripts).
 */
async function openBeforeHydration(page: Page, shop: string, path: string) {
  await signIn(page, await createMerchant(shop));
  const release = await holdScripts(page);
  await page.goto(path, { waitUntil: "commit" });
  return release;
}

const isHydrated = (element: Locator) =>
  element.evaluate((node) => Object.keys(node).some((key) => key.startsWith("__reactFiber")));

test("the invoice form shows its defaults before its script runs, and keeps what the merchant chose meanwhile", async ({
  page,
}) => {
  const release = await openBeforeHydration(page, "Early Typist Shop", "/dashboard/invoices/new");
  const currency = page.getByLabel("Currency you receive");
  // As the server rendered it: the form's default, the one the hint speaks of (not the first option).
  await expect(currency).toHaveValue("EUR");
  await expect(page.getByText(/^At least 10 EUR\./)).toBeVisible();
  await currency.selectOption("BTC");
  await page.getByLabel("Title").fill("Espresso beans");
  await page.getByLabel("Amount").fill("0,015");
  // All of it before React took the form over: the test is about that moment.
  expect(await isHydrated(currency)).toBe(false);

  release();
  await expectHydrated(currency);
  // The choice and the texts survive hydration, on the screen and in the form's state.
  await expect(page.getByText(/^At least 0\.0001 BTC\./)).toBeVisible();
  await expect(currency).toHaveValue("BTC");
  await expect(page.getByText("Shown to the customer. 14 of 50 characters.")).toBeVisible();
  await page.getByRole("button", { name: "Create invoice" }).click();
  await expect(page.getByRole("heading", { name: /Invoice \d+ created/ })).toBeVisible();
  await page.getByRole("link", { name: "View the invoice" }).click();
  await expect(page.getByText("0.015 BTC").first()).toBeVisible();
});

test("the payout page shows its defaults before its script runs, and keeps the kind of payout chosen meanwhile", async ({
  page,
}) => {
  const release = await openBeforeHydration(page, "Early Payout Shop", "/dashboard/payouts/new");
  const sender = page.getByLabel("Sender type");
  // A company sends (the default), with a company's fields.
  await expect(sender).toHaveValue("legal");
  await expect(page.getByLabel("Receiver type")).toHaveValue("natural");
  const instant = page.getByRole("radio", { name: "Instant withdrawal" });
  await instant.check();
  expect(await isHydrated(instant)).toBe(false);
  release();
  await expectHydrated(instant);
  // The page's state follows the click: the instant payout's form, not the withdrawal's under it.
  await expect(page.getByLabel("Currency to send")).toBeVisible();
  await expect(instant).toBeChecked();
  await expect(sender).toHaveValue("legal");
});

test("the payment link form shows who may pay and its currency before its script runs, and keeps an open amount chosen meanwhile", async ({
  page,
}) => {
  const release = await openBeforeHydration(page, "Early Link Shop", "/dashboard/payment-links/new");
  const people = page.getByRole("checkbox", { name: "People" });
  await expect(people).toBeChecked();
  await expect(page.getByRole("checkbox", { name: "Companies" })).toBeChecked();
  await expect(page.locator("#field-currency")).toHaveValue("EUR");
  await page.getByRole("radio", { name: "The customer enters the amount" }).check();
  expect(await isHydrated(people)).toBe(false);
  release();
  await expectHydrated(people);
  await expect(people).toBeChecked();
  await expect(page.getByRole("checkbox", { name: "Companies" })).toBeChecked();
  // The open amount chosen before hydration: its bounds, not a fixed amount.
  await expect(page.getByLabel("Least amount")).toBeVisible();
  await expect(page.getByLabel("Amount", { exact: true })).toHaveCount(0);
});
