import type { APIRequestContext, Page, TestInfo } from "@playwright/test";
import { createMerchant, expect, type SignedClient, sandboxCredit, signedClient, test } from "../fixtures";
import { capture, expectAccessible } from "./page-checks";
import { signIn } from "./sign-in";
import { confirmStepUp } from "./step-up";
import { checkBothWidths, PHONE } from "./widths";

const SHOTS = "/tmp/shots-forms";
/** The dashboard groups digits with U+202F (narrow no-break space). */
const GROUP = "\u202f";

async function shoot(page: Page, testInfo: TestInfo, name: string) {
  const body = await capture(page, { fullPage: true, path: `${SHOTS}/${name}.png` });
  await testInfo.attach(name, { body, contentType: "image/png" });
}

/** 10^-8 units from decimal text, and back as the dashboard shows crypto (no trailing zeros). */
const units = (text: string) => {
  const [whole, fraction = ""] = text.split(".");
  return BigInt(whole!) * 100_000_000n + BigInt(fraction.padEnd(8, "0"));
};
const shown = (value: bigint) =>
  `${value / 100_000_000n}.${(value % 100_000_000n).toString().padStart(8, "0")}`.replace(/\.?0+$/, "");

/** An invoice of 120 EUR created through the signed API, the customer having chosen BTC. */
async function createBtcInvoice(
  request: APIRequestContext,
  client: SignedClient,
  input: { title: string; timer: boolean },
) {
  const created = await client.post("/invoices/create", {
    end_user_reference: "cust-42",
    timer: input.timer,
    title: input.title,
    foreign_id: `forms-${Date.now()}-${Math.random().toString(36).slice(2, 6)}`,
    currency: "EUR",
    amount: "120",
    url_success: "https://shop.example/ok",
    url_failed: "https://shop.example/failed",
    email_user: "grace@example.com",
    sender_type: "natural",
    sender_data: { first_name: "Grace", last_name: "Hopper", date_of_birth: "1990-12-10" },
  });
  expect(created.status()).toBe(201);
  const data = (await created.json()).data as { id: number; url: string };
  const token = new URL(data.url).pathname.split("/pay/")[1];
  const view = await (
    await request.post(`/api/checkout/${token}/currency`, { data: { currency: "BTC" } })
  ).json();
  return { id: data.id, address: view.address as string, due: units(view.sender_amount) };
}

test(`the invoice form hints the minimum, counts the title, reads "12,50" exactly and focuses the result, each page at 375 and 1280 px`, async ({
  page,
}, testInfo) => {
  await page.setViewportSize(PHONE);
  await signIn(page, await createMerchant("Form Hints Shop"));
  await page.goto("/dashboard/invoices/new");
  await expect(
    page.getByText("At least 10 EUR. A comma works as the decimal mark: 12,50 is 12.50."),
  ).toBeVisible();
  await page.getByLabel("Currency you receive").selectOption("BTC");
  await expect(page.getByText(/^At least 0\.0001 BTC\./)).toBeVisible();
  await page.getByLabel("Currency you receive").selectOption("EUR");

  const title = page.getByLabel("Title");
  await title.fill("Espresso beans");
  await expect(page.getByText("Shown to the customer. 14 of 50 characters.")).toBeVisible();
  // A message from the schema names the field as the screen does.
  await title.fill("");
  await title.blur();
  await expect(page.getByText("The “Title” field is required.")).toBeVisible();
  await title.fill("Espresso beans");

  await page.getByRole("textbox", { name: "Amount", exact: true }).fill("12,50");
  await page.getByText("Customer details (optional)", { exact: true }).click();
  await page.getByLabel("Sender type").selectOption("natural");
  await page.getByLabel("Customer's e-mail").fill("buyer@example.com");
  await page.getByLabel("Customer reference").fill("cust-9");
  await page.getByLabel("First name").fill("Ada");
  await page.getByLabel("Last name").fill("Lovelace");
  await page.getByLabel("Date of birth").fill("1990-12-10");
  // The timer says when the clock starts: at creation (15 minutes on this server), not at a choice.
  await expect(
    page.getByText(/counted from when you create the invoice \(not from when they open/),
  ).toBeVisible();
  await page.getByText("More options", { exact: true }).click();
  await page.getByLabel("Return address after payment").fill("https://shop.example/ok");
  await page.getByLabel("Return address if the payment fails").fill("https://shop.example/failed");
  const timer = page.getByRole("checkbox", { name: "Give the customer 15 minutes to pay, from now" });
  await expect(timer).toBeChecked();
  await expect(timer).toHaveAccessibleDescription(/The clock starts when you create the invoice/);
  await timer.uncheck();
  await expect(timer).toHaveAccessibleDescription(/stays open; its price holds for 15 minutes at a time/);
  await expect(page.getByText(/^No deadline to pay\. Once the customer chooses a coin/)).toBeVisible();
  await timer.check();
  await checkBothWidths(page, testInfo, "invoice-form");
  await page.getByRole("button", { name: "Create invoice" }).click();

  const heading = page.getByRole("heading", { name: /^Invoice \d+ created$/ });
  await expect(heading).toBeFocused();
  await checkBothWidths(page, testInfo, "invoice-created");
  await page.getByRole("link", { name: "View the invoice" }).click();
  const invoiced = page
    .getByRole("region", { name: "Amounts" })
    .locator("dt", { hasText: /^Invoiced$/ })
    .locator("xpath=following-sibling::dd[1]");
  await expect(invoiced).toHaveText("12.50 EUR");
});

test(`the sandbox panel pays under, over and exact, and expires, in one click each, each page at 375 and 1280 px`, async ({
  page,
  request,
}, testInfo) => {
  const merchant = await createMerchant("Sandbox Click Shop");
  const client = signedClient(request, merchant);
  const topUp = await createBtcInvoice(request, client, { title: "Paid in two goes", timer: true });
  const lapsed = await createBtcInvoice(request, client, { title: "Never paid", timer: true });
  const exact = await createBtcInvoice(request, client, { title: "Paid exactly", timer: true });
  await page.setViewportSize(PHONE);
  await signIn(page, merchant);
  await page.goto("/dashboard/sandbox");
  const panel = page.getByRole("region", { name: "Act on an invoice" });
  const status = panel.getByRole("status");
  const act = async (id: number, button: string, outcome: string) => {
    await panel.getByLabel("Open invoice").selectOption(String(id));
    await panel.getByRole("button", { name: button }).click();
    await expect(status).toContainText(`Invoice ${id} is now: ${outcome}.`, { timeout: 30_000 });
  };

  await act(topUp.id, "Pay under", "Partly paid, awaiting the rest");
  await checkBothWidths(page, testInfo, "sandbox-under");
  await act(topUp.id, "Pay over", "Paid (more than asked)");
  await act(lapsed.id, "Expire now", "Expired unpaid");
  await act(exact.id, "Pay exact", "Paid");
  await checkBothWidths(page, testInfo, "sandbox-exact");

  // The same outcomes the public API reports (transactions/info says "declined" for a failed invoice).
  const info = async (id: number) =>
    (await (await client.send("POST", "/transactions/info", JSON.stringify({ id }))).json()) as {
      status: string;
    };
  expect((await info(topUp.id)).status).toBe("confirmed");
  expect((await info(lapsed.id)).status).toBe("declined");
  expect((await info(exact.id)).status).toBe("confirmed");
  await page.goto(`/dashboard/invoices/${exact.id}`);
  const received = page
    .getByRole("region", { name: "Amounts" })
    .locator("dt", { hasText: /^Received$/ })
    .locator("xpath=following-sibling::dd[1]");
  await expect(received).toHaveText(`${shown(exact.due)} BTC`);
});

test(`a refund owed is recorded against the invoice, listed there, and refused past what is owed, each page at 375 and 1280 px`, async ({
  page,
  request,
}, testInfo) => {
  const merchant = await createMerchant("Refund Link Shop");
  await sandboxCredit(merchant.merchantId, "EUR", "1000");
  const client = signedClient(request, merchant);
  // Without a timer, a short payment fails the invoice at once: everything received is owed back.
  const short = await createBtcInvoice(request, client, { title: "Bookshelf", timer: false });
  const half = short.due / 2n;
  await client.post("/sandbox/payments", { address: short.address, currency: "BTC", amount: shown(half) });
  await client.post("/sandbox/blocks", { currency: "BTC", count: 2 });
  await expect
    .poll(
      async () =>
        (await (await client.send("POST", "/transactions/info", JSON.stringify({ id: short.id }))).json())
          .status,
      { timeout: 15_000 },
    )
    .toBe("declined"); // transactions/info's word for a failed invoice

  await page.setViewportSize(PHONE);
  await signIn(page, merchant);
  await page.goto(`/dashboard/invoices/${short.id}`);
  const link = page
    .getByRole("region", { name: "Refund owed" })
    .getByRole("link", { name: `Send ${shown(half)} BTC to an address you have` });
  const href = (await link.getAttribute("href"))!;
  await link.click();

  await expect(page.locator("p", { hasText: `Refund of invoice ${short.id}:` })).toBeVisible();
  const fillPayout = async (isFirst = false) => {
    await page.getByLabel(/Destination .* address/).fill("tb1qfdxh6gkfr0qgyatnlkd8khcnxph9tw06n6qwjc");
    await page.getByLabel("Country of registration").first().fill("DEU");
    await page.getByLabel("Receiver type").selectOption("self");
    await page.getByRole("button", { name: "Review payout" }).click();
    await page.getByRole("button", { name: "Confirm payout" }).click();
    // A refund is a payout: confirmed like one, once a window.
    if (isFirst) await confirmStepUp(page, merchant.password);
  };
  await fillPayout(true);
  const accepted = page.getByRole("heading", { name: /^Payout \d+ accepted$/ });
  await expect(accepted).toBeVisible();
  const payoutId = /Payout (\d+)/.exec((await accepted.textContent())!)![1]!;

  await page.goto(`/dashboard/invoices/${short.id}`);
  const refunds = page.getByRole("region", { name: "Refunds" });
  await expect(refunds.getByRole("link", { name: `Payout ${payoutId}` })).toBeVisible();
  await expect(refunds).toContainText(`${shown(half)} BTC`);
  await expect(page.getByRole("link", { name: /^Send .* to an address you have$/ })).toHaveCount(0);
  await checkBothWidths(page, testInfo, "invoice-refunded");

  // The same link again, under a new payout id: the server refuses it, in the form's own words.
  await page.goto(href);
  await page.getByLabel("Your payout id (foreign_id)").fill(`again-${Date.now()}`);
  await fillPayout();
  await expect(
    page.getByText(`Invoice ${short.id} is already refunded in full (${shown(half)} BTC).`),
  ).toBeVisible();
  await checkBothWidths(page, testInfo, "refund-refused");

  await page.goto(`/dashboard/transactions/${payoutId}`);
  await expect(page.getByRole("link", { name: `invoice ${short.id}` })).toHaveAttribute(
    "href",
    `/dashboard/invoices/${short.id}`,
  );
});

for (const width of [1280, 375]) {
  test(`dashboard amounts group their digits, and the audit filter row lines up (${width} px)`, async ({
    page,
  }, testInfo) => {
    const merchant = await createMerchant("Digits Shop");
    await sandboxCredit(merchant.merchantId, "EUR", "1234567.5");
    await page.setViewportSize({ width, height: 900 });
    await signIn(page, merchant);
    await expect(page.getByText(`1${GROUP}234${GROUP}567.50 EUR`)).toBeVisible();

    await page.goto("/dashboard/audit");
    const controls = [
      page.getByLabel("Action"),
      page.getByLabel("Who (contains)"),
      page.getByLabel("From"),
      page.getByLabel("Before"),
      page.getByRole("button", { name: "Filter" }),
    ];
    const boxes = await Promise.all(controls.map(async (control) => (await control.boundingBox())!));
    const heights = boxes.map((box) => Math.round(box.height));
    expect(new Set(heights).size).toBe(1);
    if (width >= 1024) {
      // One row: every control's top and bottom on the same lines.
      expect(new Set(boxes.map((box) => Math.round(box.y))).size).toBe(1);
    } else {
      // Stacked: one column, one left edge.
      expect(new Set(boxes.slice(0, 4).map((box) => Math.round(box.x))).size).toBe(1);
    }
    await expectAccessible(page);
    await shoot(page, testInfo, `audit-filter-${width}`);
  });
}
