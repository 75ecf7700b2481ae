import { createMerchant, expect, signedClient, test } from "../fixtures";
import { ltcInvoice, payLtc } from "../ltc-invoice";
import { signIn } from "./sign-in";
import { confirmStepUp } from "./step-up";
import { checkBothWidths, PHONE } from "./widths";

test("a support e-mail shows on the checkout, and an overpaid invoice is marked resolved, each page at 375 and 1280 px", async ({
  page,
  request,
}, testInfo) => {
  const merchant = await createMerchant("Exceptions");
  const client = signedClient(request, merchant);
  await page.setViewportSize(PHONE);
  await signIn(page, merchant);

  // Settings: the support address, confirmed once (the step-up window then covers the resolve).
  await page.goto("/dashboard/settings");
  const support = page.getByRole("form", { name: "Support e-mail" });
  await support.getByLabel("Support e-mail address").fill("not an address");
  await support.getByRole("button", { name: "Save support e-mail" }).click();
  await expect(support.getByText("Type an e-mail address like support@example.com.")).toBeVisible();
  await support.getByLabel("Support e-mail address").fill("help@exceptions.example");
  await support.getByRole("button", { name: "Save support e-mail" }).click();
  await confirmStepUp(page, merchant.password);
  await expect(support.getByText("Saved: customers' replies go to help@exceptions.example.")).toBeVisible();
  await checkBothWidths(page, testInfo, "settings-support");

  // An invoice the customer pays twice over.
  const { invoice, address, due } = await ltcInvoice(client, request, {
    foreignId: `exc-${Date.now()}`,
    title: "Reading lamp",
    customer: { first_name: "Grace", last_name: "Hopper", email: "grace@example.com" },
  });

  // The checkout names the merchant's support address, as a mail link.
  await page.goto(invoice.url);
  const contact = page.getByTestId("support-contact");
  await expect(contact).toContainText("Questions about this payment? Write to Exceptions at");
  await expect(contact.getByRole("link", { name: "help@exceptions.example" })).toHaveAttribute(
    "href",
    "mailto:help@exceptions.example",
  );
  await checkBothWidths(page, testInfo, "checkout-support");

  await payLtc(client, { invoiceId: invoice.id, address, amount: due * 2n, status: "confirmed" });

  // The invoice page: closed, so no payment link; "Mark resolved" asks once more, then shows who, when, why.
  await page.goto(`/dashboard/invoices/${invoice.id}`);
  await expect(page.getByRole("heading", { name: "Reading lamp", level: 1 })).toBeVisible();
  await expect(page.getByRole("region", { name: "Payment link" })).toHaveCount(0);
  const resolve = page.getByRole("region", { name: "Close without a refund" });
  await resolve.getByLabel("Reason").selectOption("other");
  await expect(resolve.getByRole("button", { name: "Mark resolved" })).toBeDisabled();
  await resolve.getByLabel("Note (required)").fill("Customer took store credit");
  await checkBothWidths(page, testInfo, "invoice-resolve");
  await resolve.getByRole("button", { name: "Mark resolved" }).click();
  await expect(resolve.getByText("No refund can be issued for it afterwards.")).toBeVisible();
  await resolve.getByRole("button", { name: "Yes, mark resolved" }).click();

  const resolution = page.getByRole("region", { name: "Resolved without a refund" });
  await expect(resolution).toContainText("Other");
  await expect(resolution).toContainText("Customer took store credit");
  await expect(resolution).toContainText(merchant.email);
  await expect(page.getByRole("region", { name: "Close without a refund" })).toHaveCount(0);
  await expect(page.getByText("resolved without a refund", { exact: false }).first()).toBeVisible();
  await expect(page.getByRole("region", { name: "Timeline" })).toContainText(
    `Resolved without a refund by ${merchant.email}: Other`,
  );
  await checkBothWidths(page, testInfo, "invoice-resolved");

  // The public API says the same.
  const info = await (
    await client.send("POST", "/transactions/info", JSON.stringify({ id: invoice.id }))
  ).json();
  expect(info.additional_details.resolution).toMatchObject({
    reason: "other",
    note: "Customer took store credit",
  });
});
