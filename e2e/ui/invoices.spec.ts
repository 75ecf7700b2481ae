import type { APIRequestContext } from "@playwright/test";
import { createMerchant, expect, type SignedClient, signedClient, test } from "../fixtures";
import { navLink } from "./dashboard-nav";
import { signIn } from "./sign-in";
import { checkBothWidths, DESKTOP, PHONE } from "./widths";

/** 10^-8 units from the API's decimal text, and back as the dashboard shows crypto (no trailing zeros). */
const units = (text: string) => {
  const [whole, fraction = ""] = text.split(".");
  return BigInt(whole!) * 100_000_000n + BigInt(fraction.padEnd(8, "0"));
};
const shown = (value: bigint) =>
  `${value / 100_000_000n}.${(value % 100_000_000n).toString().padStart(8, "0")}`.replace(/\.?0+$/, "");

/** An invoice created through the signed API, its pay currency chosen as the customer would. */
async function createInvoice(
  request: APIRequestContext,
  client: SignedClient,
  title: string,
  chooseBtc: boolean,
) {
  const created = await client.post("/invoices/create", {
    end_user_reference: "cust-42",
    timer: false,
    title,
    foreign_id: `page-${Date.now()}-${Math.random().toString(36).slice(2, 6)}`,
    currency: "EUR",
    amount: "120",
    url_success: "https://shop.example/ok",
    url_failed: "https://shop.example/failed",
    email_user: "grace@example.com",
    sender_type: "natural",
    sender_data: { first_name: "Grace", last_name: "Hopper", date_of_birth: "1990-12-10" },
  });
  expect(created.status()).toBe(201);
  const data = (await created.json()).data as { id: number; url: string; foreign_id: string };
  if (!chooseBtc) return { ...data, address: "", due: 0n };
  const token = new URL(data.url).pathname.split("/pay/")[1];
  const view = await (
    await request.post(`/api/checkout/${token}/currency`, { data: { currency: "BTC" } })
  ).json();
  return { ...data, address: view.address as string, due: units(view.sender_amount) };
}

test(`an overpaid invoice is flagged on the list and its page shows the excess and net credited, each page at 375 and 1280 px`, async ({
  page,
  request,
}, testInfo) => {
  const merchant = await createMerchant("Invoice Page Shop");
  const client = signedClient(request, merchant);
  const over = await createInvoice(request, client, "Standing desk", true);
  await createInvoice(request, client, "Desk lamp", false);
  const paid = await client.post("/sandbox/payments", {
    address: over.address,
    currency: "BTC",
    amount: shown(over.due * 2n),
  });
  expect((await paid.json()).data.is_recognized).toBe(true);
  await client.post("/sandbox/blocks", { currency: "BTC", count: 2 });
  await expect
    .poll(
      async () =>
        (await (await client.send("POST", "/transactions/info", JSON.stringify({ id: over.id }))).json())
          .status,
      { timeout: 15_000 },
    )
    .toBe("confirmed");

  await page.setViewportSize(PHONE);
  await signIn(page, merchant);
  await (await navLink(page, "Invoices")).click();
  await expect(page.getByRole("heading", { name: "Invoices", level: 1 })).toBeVisible();
  const overRow = page.getByRole("row").filter({ hasText: "Standing desk" });
  await expect(overRow.getByText("Paid (more than asked)")).toBeVisible();
  await expect(overRow.getByText("Overpaid", { exact: true })).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: "Desk lamp" })).toContainText(
    "Awaiting currency choice",
  );
  // Readable without scrolling the table sideways, the order id in one line (two on a phone, where
  // it goes under the title: five columns broke it one character a line).
  const table = page.getByRole("table");
  for (const viewport of [PHONE, DESKTOP]) {
    await page.setViewportSize(viewport);
    expect(await table.evaluate((t) => t.parentElement!.scrollWidth - t.parentElement!.clientWidth)).toBe(0);
    const orderId = overRow.getByText(over.foreign_id, { exact: true }).filter({ visible: true });
    await expect(orderId).toHaveCount(1);
    const lines = await orderId.evaluate((node) => {
      const range = document.createRange();
      range.selectNodeContents(node);
      return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
    });
    expect(lines, `the order id at ${viewport.width} px`).toBeLessThanOrEqual(viewport.width < 640 ? 2 : 1);
  }
  await page.setViewportSize(PHONE);
  await checkBothWidths(page, testInfo, "list");

  // The exception filter keeps only the overpaid one; the filter is in the address.
  await page.getByLabel("Exception").selectOption("overpaid");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/exception=overpaid/);
  await expect(page.getByRole("row").filter({ hasText: "Desk lamp" })).toHaveCount(0);
  await page.getByRole("link", { name: "Standing desk" }).click();

  await expect(page.getByRole("heading", { name: "Standing desk", level: 1 })).toBeVisible();
  await expect(page.getByText("Paid (more than asked)", { exact: true })).toBeVisible();
  const amounts = page.getByRole("region", { name: "Amounts" });
  const row = (label: string) =>
    amounts
      .locator("dt")
      .filter({ hasText: new RegExp(`^${label}$`) })
      .locator("xpath=following-sibling::dd[1]");
  await expect(row("Invoiced")).toHaveText("120.00 EUR");
  await expect(row("Invoiced in BTC")).toHaveText(`${shown(over.due)} BTC`);
  await expect(row("Received")).toHaveText(`${shown(over.due * 2n)} BTC`);
  await expect(row("Excess")).toContainText("BTC");
  await expect(row("Net credited")).toContainText("EUR");
  await expect(
    page.getByText("Overpaid: The customer sent more than asked.", { exact: false }),
  ).toBeVisible();
  await expect(page.getByRole("region", { name: "Customer" })).toContainText("Grace Hopper");
  await expect(page.getByRole("region", { name: "Timeline" })).toContainText(
    "Payment seen on the network, confirming",
  );
  // Paid invoices cannot be cancelled, so the page does not offer it.
  await expect(page.getByRole("button", { name: "Cancel invoice" })).toHaveCount(0);
  // A closed invoice takes no payment: its link and QR are no longer offered.
  await expect(page.getByRole("region", { name: "Payment link" })).toHaveCount(0);
  await expect(page.getByText("This invoice is closed: it takes no more payments.")).toBeVisible();
  await checkBothWidths(page, testInfo, "invoice-overpaid");

  // Refund owed: the excess, sent from the EUR balance converted to the coin the customer paid.
  const refundLink = page
    .getByRole("region", { name: "Refund owed" })
    .getByRole("link", { name: /^Send .* to an address you have$/ });
  const excess = /^Send ([\d.]+) BTC to an address you have$/.exec(
    (await refundLink.textContent())!.trim(),
  )![1]!;
  await expect(row("Excess")).toHaveText(`${excess} BTC`);
  expect(units(excess)).toBeGreaterThan(0n);
  expect(units(excess)).toBeLessThanOrEqual(over.due);
  await refundLink.click();
  await expect(page.getByLabel("Pay from balance")).toHaveValue("EUR");
  await expect(page.getByLabel("Convert to (optional)")).toHaveValue("BTC");
  await expect(page.getByLabel("Amount (BTC)")).toHaveValue(excess);
  await expect(page.getByLabel("Your payout id (foreign_id)")).toHaveValue(`refund-${over.foreign_id}`);
  await expect(page.getByLabel("Customer reference (end_user_reference)")).toHaveValue(`refund-${over.id}`);
  await checkBothWidths(page, testInfo, "refund-prefilled");
});

test(`an open invoice shows its payment link and QR, and Cancel stops it, each page at 375 and 1280 px`, async ({
  page,
  request,
}, testInfo) => {
  const merchant = await createMerchant("Cancel Shop");
  const client = signedClient(request, merchant);
  const open = await createInvoice(request, client, "Espresso machine", true);
  await page.setViewportSize(PHONE);
  await signIn(page, merchant);
  await page.goto(`/dashboard/invoices/${open.id}`);
  await expect(page.getByRole("heading", { name: "Espresso machine", level: 1 })).toBeVisible();
  await expect(page.getByText("Awaiting payment", { exact: true })).toBeVisible();
  const link = page.getByRole("region", { name: "Payment link" });
  await expect(link.locator("output")).toHaveText(open.url);
  await expect(link.getByRole("img", { name: "QR code of the payment link" })).toBeVisible();
  await expect(link.getByRole("link", { name: "Open checkout" })).toHaveAttribute("href", open.url);
  await checkBothWidths(page, testInfo, "invoice-open");

  await page.getByRole("button", { name: "Cancel invoice" }).click();
  await expect(page.getByText("A payment already sent is still credited", { exact: false })).toBeVisible();
  await page.getByRole("button", { name: "Yes, cancel the invoice" }).click();
  await expect(page.getByText("Invoice cancelled.")).toBeVisible();
  // Read once, not awaited: the message comes with the page fetched again, never beside the open
  // invoice's link (useRefreshWith), so nothing on the page moves after the words are shown.
  expect(await page.getByRole("region", { name: "Payment link" }).count()).toBe(0);
  await expect(page.getByText("Cancelled", { exact: true }).first()).toBeVisible();
  await expect(page.getByRole("button", { name: "Cancel invoice" })).toHaveCount(0);
  // A closed invoice takes no payment: its link and QR are no longer offered.
  await expect(page.getByRole("region", { name: "Payment link" })).toHaveCount(0);
  await expect(page.getByText("This invoice is closed: it takes no more payments.")).toBeVisible();
  // The same state the public API reports.
  const info = await client.send("POST", "/transactions/info", JSON.stringify({ id: open.id }));
  expect((await info.json()).status).toBe("cancelled");
  await checkBothWidths(page, testInfo, "invoice-cancelled");
});

test("another merchant's invoice page is not found", async ({ page, request }) => {
  const owner = await createMerchant("Owner Shop");
  const invoice = await createInvoice(request, signedClient(request, owner), "Private order", false);
  const stranger = await createMerchant("Stranger Shop");
  await signIn(page, stranger);
  const response = await page.goto(`/dashboard/invoices/${invoice.id}`);
  expect(response!.status()).toBe(404);
});
