import type { Page, TestInfo } from "@playwright/test";
import { createMerchant, expect, signedClient, test } from "../fixtures";
import { expectAccessible } from "./page-checks";
import { signIn } from "./sign-in";
import { checkBothWidths, DESKTOP, PHONE } from "./widths";

/** The form's height on screen at a desktop's and at a phone's width, noted on the test; the phone's returned. */
async function formHeights(page: Page, testInfo: TestInfo, state: string): Promise<number> {
  let onPhone = 0;
  for (const viewport of [DESKTOP, PHONE]) {
    await page.setViewportSize(viewport);
    const height = Math.round((await page.locator("main form").first().boundingBox())!.height);
    testInfo.annotations.push({
      type: "form height",
      description: `${viewport.width} px wide, ${state}: ${height} px`,
    });
    if (viewport === PHONE) onPhone = height;
  }
  return onPhone;
}

test(`a merchant invoices with an amount, a currency and a title; the customer gives their details, then sees the address, each page at 375 and 1280 px`, async ({
  page,
  browser,
}, testInfo) => {
  await page.setViewportSize(PHONE);
  await signIn(page, await createMerchant("Short Form Shop"));
  await page.goto("/dashboard/invoices/new");

  // Required fields are marked before anything is submitted: a star and aria-required.
  for (const label of ["Title", "Amount", "Currency you receive"]) {
    // The star is hidden from the accessible name: screen readers hear "required" instead.
    const field = page.getByRole(label.startsWith("Currency") ? "combobox" : "textbox", {
      name: label,
      exact: true,
    });
    await expect(field).toHaveAttribute("aria-required", "true");
    await expect(
      page.locator("label", { hasText: label }).first().locator("[data-required-mark]"),
    ).toHaveText("*");
  }
  await expect(page.getByText(/^Fields marked \*with a star are required/)).toBeVisible();
  // Everything else is folded away, and optional.
  await expect(page.getByLabel("Customer's e-mail")).toBeHidden();
  await expect(page.getByLabel("Your order id")).toBeHidden();
  const folded = await formHeights(page, testInfo, "folded");
  await page.getByText("Customer details (optional)", { exact: true }).click();
  await page.getByText("More options", { exact: true }).click();
  await expect(page.getByLabel("Your order id")).not.toHaveAttribute("aria-required", "true");
  // Every choice in words: no API enum names on screen.
  await expect(page.getByLabel("If the customer pays less").locator("option")).toHaveText([
    "The full amount in one payment, or the invoice fails",
    "Several payments may add up to the amount",
  ]);
  const text = await page.locator("main").innerText();
  for (const name of ["fill_or_kill", "good_until_expired", "end_user_reference", "natural", "legal"])
    expect(text).not.toContain(name);
  await formHeights(page, testInfo, "unfolded");
  await checkBothWidths(page, testInfo, "short-form-open");
  expect(folded).toBeLessThan(1000);
  await page.getByText("Customer details (optional)", { exact: true }).click();
  await page.getByText("More options", { exact: true }).click();

  await page.getByLabel("Title").fill("Two bags of beans");
  await page.getByRole("textbox", { name: "Amount", exact: true }).fill("40");
  await checkBothWidths(page, testInfo, "short-form");
  await page.getByRole("button", { name: "Create invoice" }).click();
  await expect(page.getByRole("heading", { name: /^Invoice \d+ created$/ })).toBeFocused();
  const link = (await page.locator("output").first().textContent())!.trim();

  // The customer, in a browser of their own.
  // axe needs a page of a context of its own (browser.newPage() pages are refused).
  const customerContext = await browser.newContext({ viewport: PHONE });
  const customer = await customerContext.newPage();
  await customer.goto(link);
  await expect(customer.getByRole("heading", { name: "Your details" })).toBeVisible();
  await expect(customer.getByText("Address", { exact: true })).toHaveCount(0);
  await expect(customer.getByRole("heading", { name: "Pay with" })).toHaveCount(0);
  // The merchant's 15-minute clock runs from creation: the deadline shows before a coin is chosen.
  await expect(customer.getByTestId("countdown")).toHaveText(/^1[45]:\d\d$/);
  await expect(customer.getByLabel("First name")).toHaveAttribute("aria-required", "true");
  await checkBothWidths(customer, testInfo, "checkout-details");

  // A mistake comes back on its field.
  await customer.getByLabel("First name").fill("Grace");
  await customer.getByLabel("Last name").fill("Hopper");
  await customer.getByLabel("Date of birth").fill("2999-01-01");
  await customer.getByRole("button", { name: "Continue to payment" }).click();
  await expect(customer.getByLabel("Date of birth")).toHaveAttribute("aria-invalid", "true");
  await expect(customer.getByText(/must be a real date, not in the future/)).toBeVisible();
  await expectAccessible(customer);
  await customer.getByLabel("Date of birth").fill("1986-12-09");
  await customer.getByRole("button", { name: "Continue to payment" }).click();

  await expect(customer.getByRole("heading", { name: "Pay with" })).toBeVisible();
  await expect(customer.getByTestId("countdown")).toHaveText(/^1[45]:\d\d$/);
  await customer.getByRole("button", { name: /^LTC/ }).click();
  await expect(customer.getByText("Amount to send")).toBeVisible();
  await expect(customer.getByRole("button", { name: "Copy address" })).toBeVisible();
  await expect(customer.locator("output").nth(1)).toHaveText(/^\S{20,}$/);
  await checkBothWidths(customer, testInfo, "checkout-address");
  // A reload keeps the details: the step is not asked again.
  await customer.reload();
  await expect(customer.getByRole("heading", { name: "Your details" })).toHaveCount(0);
  await expect(customer.getByRole("button", { name: "Copy address" })).toBeVisible();
  await customerContext.close();
});

test("an untimed invoice says until when its price holds, before and after the coin is chosen", async ({
  page,
  request,
}) => {
  const merchant = await createMerchant("Price Hold Shop");
  const created = await signedClient(request, merchant).post("/invoices/create", {
    end_user_reference: "cust-hold",
    timer: false,
    title: "No deadline",
    foreign_id: `hold-${Date.now()}`,
    currency: "EUR",
    amount: "50",
    url_success: "https://shop.example/ok",
    url_failed: "https://shop.example/failed",
    email_user: "grace@example.com",
    sender_type: "natural",
    sender_data: { first_name: "Grace", last_name: "Hopper", date_of_birth: "1990-12-10" },
  });
  expect(created.status()).toBe(201);
  await page.setViewportSize({ width: 375, height: 900 });
  await page.goto((await created.json()).data.url);
  // An invoice given its details through the API asks nothing of the customer.
  await expect(page.getByRole("heading", { name: "Your details" })).toHaveCount(0);
  await expect(
    page.getByText("No deadline to pay. The price you choose holds for 15 minutes."),
  ).toBeVisible();
  await page.getByRole("button", { name: /^LTC/ }).click();
  await expect(page.getByText("This price holds for:")).toBeVisible();
  await expect(page.getByTestId("countdown")).toHaveText(/^1[45]:\d\d$/);
  await expectAccessible(page);
});
