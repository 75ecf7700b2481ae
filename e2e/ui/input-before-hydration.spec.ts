import type { Locator, Page } from "@playwright/test";
import { createMerchant, expect, signedClient, test } from "../fixtures";
import { overpaidLtcInvoice } from "../ltc-invoice";
import { expectHydrated } from "./csp-guard";
import { signIn } from "./sign-in";
import { confirmStepUp } from "./step-up";

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
  return openWithScriptsHeld(page, path);
}

/** Opens `path` with its scripts held (the page as the server rendered it); returns their release. */
async function openWithScriptsHeld(page: Page, path: string) {
  const release = await holdScripts(page);
  await page.goto(path, { waitUntil: "commit" });
  return release;
}

const isHydrated = (element: Locator) =>
  element.evaluate((node) => Object.keys(node).some((key) => key.startsWith("__reactFiber")));

/**
 * Checks that `element` is still the server's markup (what was done so far happened before React took
 * the page over: the test is about that moment), lets the scripts run and waits until React has it.
 */
async function hydrateAfterInput(release: () => void, element: Locator) {
  expect(await isHydrated(element)).toBe(false);
  release();
  await expectHydrated(element);
}

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
  await hydrateAfterInput(release, currency);
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
  await hydrateAfterInput(release, instant);
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
  await hydrateAfterInput(release, people);
  await expect(people).toBeChecked();
  await expect(page.getByRole("checkbox", { name: "Companies" })).toBeChecked();
  // The open amount chosen before hydration: its bounds, not a fixed amount.
  await expect(page.getByLabel("Least amount")).toBeVisible();
  await expect(page.getByLabel("Amount", { exact: true })).toHaveCount(0);
});

/** A merchant whose invoice was paid twice over in LTC and confirmed: it owes the excess back. */
async function overpaid(request: Parameters<typeof signedClient>[0], shop: string) {
  const merchant = await createMerchant(shop);
  const client = signedClient(request, merchant);
  return { merchant, client, ...(await overpaidLtcInvoice(client, request, "early")) };
}

test("refund terms chosen before the invoice page's script runs are the terms previewed and issued", async ({
  page,
  request,
}) => {
  const { merchant, client, foreignId, invoiceId } = await overpaid(request, "Early Refund Shop");
  // What the customer receives with the fee taken from the refund, and with the merchant paying it.
  const receives = async (fee: string) =>
    (
      await (
        await client.post(`/invoices/${foreignId}/refunds/preview`, { amount: "excess", network_fee: fee })
      ).json()
    ).data.options[0].receives as string;
  const feeTaken = await receives("customer");
  expect(feeTaken).not.toBe(await receives("merchant"));

  await signIn(page, merchant);
  const release = await openWithScriptsHeld(page, `/dashboard/invoices/${invoiceId}`);
  const fromRefund = page.getByRole("radio", { name: "Taken from the refund" });
  await page.getByRole("radio", { name: "The excess" }).check();
  await fromRefund.check();
  await hydrateAfterInput(release, fromRefund);
  await expect(fromRefund).toBeChecked();
  // The preview is of the terms on the screen: the fee comes out of what the customer receives.
  await expect(page.getByText(`${feeTaken} LTC`, { exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Issue refund" }).click();
  await confirmStepUp(page, merchant.password);
  await expect(page.locator("output").filter({ hasText: "/refund/" }).first()).toBeVisible();
  // The refund the customer is offered is the one previewed.
  const claim = (await page.locator("output").filter({ hasText: "/refund/" }).first().textContent())!.trim();
  await page.goto(new URL(claim).pathname);
  await expect(page.getByText(`${feeTaken} LTC`).first()).toBeVisible();
});

test("a refund's coin chosen before the claim page's script runs is the coin asked for and claimed", async ({
  page,
  request,
}) => {
  const { client, foreignId } = await overpaid(request, "Early Claim Shop");
  const offered = await client.post(`/invoices/${foreignId}/refunds/create`, {
    amount: "excess",
    currencies: ["BTC"],
  });
  expect(offered.status()).toBe(201);
  const claimUrl = (await offered.json()).data.claim_url as string;
  const release = await openWithScriptsHeld(page, new URL(claimUrl).pathname);
  const btc = page.getByRole("radio", { name: /\(BTC\)/ });
  // The first coin, the one paid in, is chosen as the server rendered the page.
  await expect(page.getByRole("radio", { name: /\(LTC\)/ })).toBeChecked();
  await btc.check();
  await hydrateAfterInput(release, btc);
  await expect(btc).toBeChecked();
  // The form asks for an address in the coin on the screen.
  await expect(page.getByLabel("Your BTC address")).toBeVisible();
  await expect(page.getByLabel("Your LTC address")).toHaveCount(0);
});

test("a payer type chosen before the checkout's script runs shows its own fields", async ({ page }) => {
  await signIn(page, await createMerchant("Early Payer Shop"));
  // A dashboard invoice without the customer's details: the checkout asks for them first.
  await page.goto("/dashboard/invoices/new");
  await page.getByLabel("Title").fill("Two bags of beans");
  await page.getByRole("textbox", { name: "Amount", exact: true }).fill("40");
  await page.getByRole("button", { name: "Create invoice" }).click();
  await expect(page.getByRole("heading", { name: /^Invoice \d+ created$/ })).toBeVisible();
  const link = (await page.locator("output").first().textContent())!.trim();

  const release = await openWithScriptsHeld(page, new URL(link).pathname);
  const company = page.getByRole("radio", { name: "A company" });
  await company.check();
  await hydrateAfterInput(release, company);
  await expect(company).toBeChecked();
  await expect(page.getByLabel("Company's legal name")).toBeVisible();
  await expect(page.getByLabel("First name")).toHaveCount(0);
});

/**
 * Opens `path` with its scripts held, types (`type`), and clicks the submit button named `button` before
 * React runs: the button is disabled, so the browser does not send the form itself (a GET to the page's
 * address with every field in the URL); once the script runs the button works, with what was typed.
 */
async function expectSubmitWaitsForScript(
  page: Page,
  path: string,
  type: () => Promise<void>,
  button: string,
  typed: string,
) {
  const release = await openWithScriptsHeld(page, path);
  await type();
  const submit = page.getByRole("button", { name: button });
  await expect(submit).toBeDisabled();
  await submit.click({ force: true });
  await hydrateAfterInput(release, submit);
  expect(page.url()).not.toContain(encodeURIComponent(typed));
  await expect(submit).toBeEnabled();
  await page.unrouteAll();
}

test("a sign-in, a payout, a password change and a sign-up clicked before their script runs send nothing into the address", async ({
  page,
}) => {
  const merchant = await createMerchant("Early Click Shop");
  await expectSubmitWaitsForScript(
    page,
    "/login",
    async () => {
      await page.getByLabel("E-mail").fill(merchant.email);
      await page.getByLabel("Password").fill(merchant.password);
    },
    "Sign in",
    merchant.password,
  );
  // What was typed before is what signs in.
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((url) => !url.pathname.startsWith("/login"));

  const address = "tb1qfdxh6gkfr0qgyatnlkd8khcnxph9tw06n6qwjc";
  await expectSubmitWaitsForScript(
    page,
    "/dashboard/payouts/new",
    async () => {
      await page.getByLabel("Receiver type").selectOption("self");
      await page.getByLabel(/Destination .* address/).fill(address);
    },
    "Review payout",
    address,
  );
  await expect(page.getByLabel(/Destination .* address/)).toHaveValue(address);

  await expectSubmitWaitsForScript(
    page,
    "/dashboard/settings",
    () => page.getByLabel("Current password").fill(merchant.password),
    "Change password",
    merchant.password,
  );

  await page.context().clearCookies();
  await expectSubmitWaitsForScript(
    page,
    "/signup",
    () => page.getByLabel("Password").fill("early-click-password-1"),
    "Create account",
    "early-click-password-1",
  );
});
