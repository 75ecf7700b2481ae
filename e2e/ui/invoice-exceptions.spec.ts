import { createMerchant, expect, signedClient, test } from "../fixtures";
import { expectAccessible, expectNoSidewaysScroll } from "./page-checks";
import { signIn } from "./sign-in";
import { confirmStepUp } from "./step-up";

const SHOTS = "/tmp/shots-exceptions";

/** 10^-8 units from the API's decimal text, and back (no trailing zeros). */
const units = (text: string) => {
  const [whole, fraction = ""] = text.split(".");
  return BigInt(whole!) * 100_000_000n + BigInt(fraction.padEnd(8, "0"));
};
const shown = (value: bigint) =>
  `${value / 100_000_000n}.${(value % 100_000_000n).toString().padStart(8, "0")}`.replace(/\.?0+$/, "");

for (const viewport of [
  { name: "phone", width: 375, height: 800 },
  { name: "desktop", width: 1280, height: 900 },
]) {
  test(`a support e-mail shows on the checkout, and an overpaid invoice is marked resolved, at ${viewport.width}px`, async ({
    page,
    request,
  }) => {
    const merchant = await createMerchant(`Exceptions ${viewport.name}`);
    const client = signedClient(request, merchant);
    await page.setViewportSize(viewport);
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
    await expectAccessible(page);
    await expectNoSidewaysScroll(page);

    // An invoice the customer pays twice over.
    const created = await client.post("/invoices/create", {
      end_user_reference: "cust-exc",
      timer: false,
      title: "Reading lamp",
      foreign_id: `exc-${viewport.name}-${Date.now()}`,
      currency: "EUR",
      amount: "40",
      url_success: "https://shop.example/ok",
      url_failed: "https://shop.example/failed",
      email_user: "grace@example.com",
      sender_type: "natural",
      sender_data: { first_name: "Grace", last_name: "Hopper", date_of_birth: "1990-12-10" },
    });
    expect(created.status()).toBe(201);
    const invoice = (await created.json()).data as { id: number; url: string };
    const token = new URL(invoice.url).pathname.split("/pay/")[1];
    const view = await (
      await request.post(`/api/checkout/${token}/currency`, { data: { currency: "LTC" } })
    ).json();

    // The checkout names the merchant's support address, as a mail link.
    await page.goto(invoice.url);
    const contact = page.getByTestId("support-contact");
    await expect(contact).toContainText(
      `Questions about this payment? Write to Exceptions ${viewport.name} at`,
    );
    await expect(contact.getByRole("link", { name: "help@exceptions.example" })).toHaveAttribute(
      "href",
      "mailto:help@exceptions.example",
    );
    await expectAccessible(page);
    await expectNoSidewaysScroll(page);

    const paid = await client.post("/sandbox/payments", {
      address: view.address,
      currency: "LTC",
      amount: shown(units(view.sender_amount) * 2n),
    });
    expect(paid.status()).toBe(201);
    await client.post("/sandbox/blocks", { currency: "LTC", count: 6 });
    await expect
      .poll(
        async () =>
          (await (await client.send("POST", "/transactions/info", JSON.stringify({ id: invoice.id }))).json())
            .status,
        { timeout: 20_000 },
      )
      .toBe("confirmed");

    // The invoice page: closed, so no payment link; "Mark resolved" asks once more, then shows who, when, why.
    await page.goto(`/dashboard/invoices/${invoice.id}`);
    await expect(page.getByRole("heading", { name: "Reading lamp", level: 1 })).toBeVisible();
    await expect(page.getByRole("region", { name: "Payment link" })).toHaveCount(0);
    const resolve = page.getByRole("region", { name: "Close without a refund" });
    await resolve.getByLabel("Reason").selectOption("other");
    await expect(resolve.getByRole("button", { name: "Mark resolved" })).toBeDisabled();
    await resolve.getByLabel("Note (required)").fill("Customer took store credit");
    await expectAccessible(page);
    await expectNoSidewaysScroll(page);
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
    await expectAccessible(page);
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: `${SHOTS}/resolved-${viewport.name}.png`, fullPage: true });

    // The public API says the same.
    const info = await (
      await client.send("POST", "/transactions/info", JSON.stringify({ id: invoice.id }))
    ).json();
    expect(info.additional_details.resolution).toMatchObject({
      reason: "other",
      note: "Customer took store credit",
    });
  });
}
