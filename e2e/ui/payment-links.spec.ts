import { mkdirSync } from "node:fs";
import type { APIRequestContext, Browser, Page } from "@playwright/test";
import { createMerchant, expect, type SignedClient, signedClient, test } from "../fixtures";
import { shown, units } from "../ltc-invoice";
import { capture, expectAccessible, expectNoSidewaysScroll } from "./page-checks";
import { signIn } from "./sign-in";
import { confirmStepUp } from "./step-up";

const SHOTS = "/tmp/shots-payment-links";
const PHONE = { width: 375, height: 800 };
const DESKTOP = { width: 1280, height: 900 };

/** A full-page screenshot kept in /tmp/shots-payment-links and attached to the report. */
async function shot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  const body = await capture(page, { fullPage: true, path: `${SHOTS}/${name}.png` });
  await test.info().attach(name, { body, contentType: "image/png" });
}

async function checkPage(page: Page, name: string) {
  await expectAccessible(page);
  await expectNoSidewaysScroll(page);
  await shot(page, name);
}

/** An 8-digit EUR amount as the dashboard shows it: rounded to the cent, grouped in threes. */
function euros(wire: string): string {
  const cents = (units(wire) + 500_000n) / 1_000_000n;
  const whole = (cents / 100n).toString().replace(/\B(?=(\d{3})+$)/g, "\u202f");
  return `${whole}.${(cents % 100n).toString().padStart(2, "0")} EUR`;
}

type ListedLink = {
  id: number;
  title: string;
  url: string;
  uses: number;
  paid_invoices: number;
  received: string;
};

async function listedLink(client: SignedClient, title: string): Promise<ListedLink> {
  const answer = await client.post("/payment-links/list", { limit: 100 });
  expect(answer.status()).toBe(200);
  const links = (await answer.json()).data.payment_links as ListedLink[];
  return links.find((link) => link.title === title)!;
}

/**
 * The customer's side on a phone: the link's page, their details (and the amount when the link asks
 * for one), then the new invoice's checkout, where they choose BTC and pay it from the sandbox
 * wallet until it reads "Invoice paid". Returns the invoice's id, read from the checkout's own API.
 */
async function payLink(
  customer: Page,
  input: {
    client: SignedClient;
    request: APIRequestContext;
    url: string;
    name: string;
    amount?: string;
    firstTry?: string;
  },
) {
  await customer.goto(new URL(input.url).pathname);
  await expect(customer.getByRole("heading", { level: 1 })).toBeVisible();
  await checkPage(customer, `${input.name}-link-phone`);
  if (input.firstTry !== undefined) {
    // An amount outside the link's range is refused under its field, in words, before any invoice.
    await customer.getByLabel(/Amount to pay in EUR/).fill(input.firstTry);
    await customer.getByLabel("First name").fill("Ada");
    await customer.getByLabel("Last name").fill("Lovelace");
    await customer.getByLabel("Date of birth").fill("1990-12-10");
    await customer.getByRole("button", { name: "Continue to payment" }).click();
    await expect(customer.getByText(/The amount must be at least 10 EUR\./)).toBeVisible();
    await expect(customer.getByLabel(/Amount to pay in EUR/)).toHaveAttribute("aria-invalid", "true");
    await checkPage(customer, `${input.name}-refused-phone`);
  }
  if (input.amount !== undefined) await customer.getByLabel(/Amount to pay in EUR/).fill(input.amount);
  await customer.getByLabel("First name").fill("Ada");
  await customer.getByLabel("Last name").fill("Lovelace");
  await customer.getByLabel("Date of birth").fill("1990-12-10");
  await customer.getByLabel(/E-mail/).fill("ada@example.com");
  await customer.getByRole("button", { name: "Continue to payment" }).click();
  await expect(customer).toHaveURL(/\/pay\/[A-Za-z0-9_-]+$/);
  // The checkout names its invoice at the foot of the page.
  const footer = await customer.getByText(/^Invoice \d+ · payments processed by Kassa/).textContent();
  const invoiceId = Number(/^Invoice (\d+)/.exec(footer!)![1]);
  const token = new URL(customer.url()).pathname.split("/pay/")[1]!;

  // The usual checkout, with no details asked again: choose the coin, see the address, pay.
  await customer.getByRole("button", { name: /^BTC/ }).click();
  await expect(customer.getByText("Amount to send")).toBeVisible();
  await checkPage(customer, `${input.name}-checkout-phone`);
  const view = await (await input.request.get(`/api/checkout/${token}`)).json();
  expect(view.address).toBeTruthy();
  const paid = await input.client.post("/sandbox/payments", {
    address: view.address,
    currency: "BTC",
    amount: shown(units(view.sender_amount)),
  });
  expect(paid.status()).toBe(201);
  await input.client.post("/sandbox/blocks", { currency: "BTC", count: 2 });
  await expect(customer.getByRole("heading", { name: "Invoice paid" })).toBeVisible({ timeout: 20_000 });
  await checkPage(customer, `${input.name}-paid-phone`);
  return invoiceId;
}

async function phone(browser: Browser) {
  const context = await browser.newContext({ viewport: PHONE });
  return context.newPage();
}

test("a customer pays a fixed and an open-amount link on a phone; the merchant sees uses and money received, deactivates, and the link refuses", async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(240_000);
  const merchant = await createMerchant("Links Shop");
  const client = signedClient(request, merchant);

  // The merchant makes a fixed-price link on the dashboard's form, on a desktop.
  await page.setViewportSize(DESKTOP);
  await signIn(page, merchant);
  await page.getByRole("navigation").getByRole("link", { name: "Payment links" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Payment links" })).toBeVisible();
  await page.getByRole("link", { name: "New payment link" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "New payment link" })).toBeVisible();
  // Refused in the merchant's words, on the field, before anything is created.
  await page.getByRole("button", { name: "Create payment link" }).click();
  await expect(page.getByText(/“Title” field is required/)).toBeVisible();
  await page.getByLabel("Title").fill("Concert ticket");
  await page.getByRole("textbox", { name: "Amount", exact: true }).fill("25");
  await page.getByLabel("Number of payments").fill("3");
  await checkPage(page, "form-desktop");
  await page.getByRole("button", { name: "Create payment link" }).click();
  await expect(page).toHaveURL(/\/dashboard\/payment-links\/\d+$/);
  await expect(page.getByRole("heading", { level: 1, name: "Concert ticket" })).toBeVisible();
  await expect(page.getByRole("img", { name: "QR code of the payment link" })).toBeVisible();
  const fixed = await listedLink(client, "Concert ticket");
  await expect(page.locator("output").first()).toHaveText(fixed.url);
  const qr = await request.get(`/api/link/${new URL(fixed.url).pathname.split("/").pop()}/qr.svg`);
  expect([qr.status(), qr.headers()["content-type"]]).toEqual([200, "image/svg+xml"]);

  // An open-amount link, through the API.
  const created = await client.post("/payment-links/create", {
    title: "Donation",
    description: "Any amount from 10 to 100 EUR helps.",
    currency: "EUR",
    min_amount: "10",
    max_amount: "100",
    sender_types: ["natural"],
  });
  expect(created.status()).toBe(201);
  const open = (await created.json()).data as ListedLink;

  // The customer pays both on a phone.
  const customer = await phone(browser);
  const fixedInvoice = await payLink(customer, { client, request, url: fixed.url, name: "fixed" });
  const openInvoice = await payLink(customer, {
    client,
    request,
    url: open.url,
    name: "open",
    firstTry: "5",
    amount: "42,50",
  });

  // What each link received, against what transactions/info says its one invoice was credited.
  const fixedNow = await listedLink(client, "Concert ticket");
  const openNow = await listedLink(client, "Donation");
  expect([fixedNow.uses, fixedNow.paid_invoices, openNow.uses, openNow.paid_invoices]).toEqual([1, 1, 1, 1]);
  for (const [link, invoiceId] of [
    [fixedNow, fixedInvoice],
    [openNow, openInvoice],
  ] as const) {
    const info = await (
      await client.send("POST", "/transactions/info", JSON.stringify({ id: invoiceId }))
    ).json();
    expect(info.status).toBe("confirmed");
    expect(info.additional_details.payment_link_id).toBe(link.id);
    expect(units(link.received)).toBe(units(info.currency_received.amount_minus_fee));
  }
  const openInfo = await (
    await client.send("POST", "/transactions/info", JSON.stringify({ id: openInvoice }))
  ).json();
  expect(openInfo.additional_details.amount).toBe("42.50000000");

  // The merchant's list on a desktop and a phone: uses against the limit, and the money received.
  await page.goto("/dashboard/payment-links");
  const fixedRow = page.getByRole("row", { name: /Concert ticket/ });
  await expect(fixedRow).toContainText("1 of 3");
  await expect(fixedRow).toContainText(euros(fixedNow.received));
  await checkPage(page, "list-desktop");
  await page.setViewportSize(PHONE);
  await page.reload();
  await expect(page.getByRole("row", { name: /Donation/ })).toContainText("1");
  await checkPage(page, "list-phone");

  // Deactivate, confirmed with the password, on a desktop.
  await page.setViewportSize(DESKTOP);
  await page.goto(`/dashboard/payment-links/${fixed.id}`);
  await expect(page.getByTestId("link-uses")).toHaveText("1 of 3 (1 paid, 0 being paid)");
  await expect(page.getByRole("table")).toContainText("Paid");
  // Its invoice says which link the customer started it from, and leads back to it.
  await page.getByRole("table").getByRole("link").first().click();
  await expect(page).toHaveURL(/\/dashboard\/invoices\/\d+$/);
  await page.getByRole("link", { name: "payment link “Concert ticket”" }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/payment-links/${fixed.id}$`));
  await page.getByRole("button", { name: "Deactivate link" }).click();
  await page.getByRole("button", { name: "Yes, deactivate the link" }).click();
  await confirmStepUp(page, merchant.password);
  await expect(page.getByTestId("link-status")).toHaveText("Deactivated");
  await expect(page.getByRole("button", { name: "Deactivate link" })).toHaveCount(0);
  await checkPage(page, "deactivated-desktop");

  // The customer opening it now is told, in words, and offered nothing to fill in.
  await customer.goto(new URL(fixed.url).pathname);
  await expect(customer.getByRole("heading", { name: "This link cannot be paid" })).toBeVisible();
  await expect(customer.getByText(/Links Shop has turned this payment link off/)).toBeVisible();
  await expect(customer.getByRole("button", { name: "Continue to payment" })).toHaveCount(0);
  await checkPage(customer, "deactivated-link-phone");
  const refused = await request.post(`/api/link/${new URL(fixed.url).pathname.split("/").pop()}/start`, {
    data: {
      sender_type: "natural",
      sender_data: { first_name: "A", last_name: "B", date_of_birth: "1990-01-01" },
    },
  });
  expect(refused.status()).toBe(410);
  await customer.context().close();
});
