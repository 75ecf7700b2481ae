import { type APIRequestContext, type Page, request as playwrightRequest } from "@playwright/test";
import { quiet, shortTimer } from "../../playwright.config";
import { decimal } from "../currency-switch";
import { createMerchant, expect, type SignedClient, signedClient, test, UNMINED } from "../fixtures";
import { capture, expectAccessible } from "./page-checks";
import { checkBothWidths, PHONE } from "./widths";

let counter = 0;
async function createInvoice(client: SignedClient, baseURL: string, overrides: Record<string, unknown> = {}) {
  counter++;
  const response = await client.post("/invoices/create", {
    end_user_reference: `shopper-${counter}`,
    timer: true,
    title: "Two concert tickets",
    description: "Row 12, seats 4 and 5",
    foreign_id: `ui-${Date.now()}-${counter}`,
    currency: "EUR",
    amount: "120",
    url_success: `${baseURL}/?paid=${counter}`,
    url_failed: `${baseURL}/?failed=${counter}`,
    email_user: "buyer@example.com",
    sender_type: "natural",
    sender_data: { first_name: "Ada", last_name: "Lovelace", date_of_birth: "1990-12-10" },
    ...overrides,
  });
  expect(response.status()).toBe(201);
  const data = (await response.json()).data;
  return { ...data, path: new URL(data.url).pathname as string };
}

const SHOTS = "/tmp/shots-checkout";

/** Attaches a full-page screenshot to the report and keeps a copy in /tmp/shots-checkout. */
async function shot(page: Page, name: string) {
  const body = await capture(page, { fullPage: true, path: `${SHOTS}/${name}.png` });
  await test.info().attach(name, { body, contentType: "image/png" });
}

/** A decimal as the page's headings show it: the whole part grouped in threes by narrow spaces. */
function grouped(text: string): string {
  return text.trim().replace(/^\d+/, (whole) => whole.replace(/\B(?=(\d{3})+$)/g, "\u202f"));
}

/** Minor units (10^-8) from a decimal amount as the page shows it. */
function units(text: string): bigint {
  const [whole, decimals = ""] = text.trim().split(" ")[0]!.split(".");
  return BigInt(whole!) * 100_000_000n + BigInt(decimals.padEnd(8, "0"));
}

/** Reads what the page tells the customer to send, and sends it (in BTC unless told) from the sandbox wallet. */
async function readAndPay(
  page: Page,
  client: SignedClient,
  fraction: { times?: bigint; over?: bigint; currency?: string } = {},
) {
  const amountText = (await page
    .getByRole("status")
    .filter({ hasText: /^\d/ })
    .first()
    .textContent())!.trim();
  const address = (await page.locator("output").nth(1).textContent())!.trim();
  const [whole, decimals = ""] = amountText.split(".");
  let units = BigInt(whole!) * 100_000_000n + BigInt(decimals.padEnd(8, "0"));
  if (fraction.times) units = units / fraction.times;
  if (fraction.over) units += fraction.over;
  const amount = `${units / 100_000_000n}.${(units % 100_000_000n).toString().padStart(8, "0")}`;
  const paid = await client.post("/sandbox/payments", {
    address,
    currency: fraction.currency ?? "BTC",
    amount,
  });
  expect((await paid.json()).data.is_recognized).toBe(true);
  return { address, amountText };
}

test.describe("hosted checkout", () => {
  test("choose BTC, pay, watch confirmations, and return to the shop without reloading", async ({
    page,
  }, testInfo) => {
    // Its own server and chain: blocks mined by tests running in parallel would confirm this payment
    // before the page could show it being confirmed.
    const api = await playwrightRequest.newContext({ baseURL: quiet.baseURL });
    const client = signedClient(api, await createMerchant("E2E Shop", quiet.dataDir));
    const baseURL = quiet.baseURL;
    const invoice = await createInvoice(client, baseURL);
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto(`${baseURL}${invoice.path}`);
    await expect(page.getByRole("heading", { level: 1, name: "Two concert tickets" })).toBeVisible();
    await expect(page.getByTestId("amount-due")).toHaveText("120.00 EUR");
    await expectAccessible(page);
    await testInfo.attach("checkout-choose-phone", {
      body: await capture(page, { fullPage: true }),
      contentType: "image/png",
    });

    await page.evaluate(() => {
      (window as unknown as { marker: string }).marker = "same page";
    });
    await page.getByRole("button", { name: /^BTC/ }).click();
    await expect(page.getByText("Amount to send")).toBeVisible();
    await expect(page.getByTestId("countdown")).toHaveText(/^1[45]:\d\d$/);
    await expect(page.getByRole("img", { name: /QR code for paying .* \(sandbox\)$/ })).toBeVisible();
    // The address is on the sandbox chain: labelled so, visibly and for screen readers.
    await expect(
      page.getByText(/^Sandbox address, on a test network: send no real funds to it$/),
    ).toBeVisible();
    await expect(page.getByRole("link", { name: "Open in wallet" })).toHaveAttribute(
      "href",
      /^bitcoin:tb1q.+\?amount=0\.\d+$/,
    );
    await expectAccessible(page);
    await testInfo.attach("checkout-pay-phone", {
      body: await capture(page, { fullPage: true }),
      contentType: "image/png",
    });

    await readAndPay(page, client);
    await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible();
    await expect(page.getByText("Confirmations: 0 of 2")).toBeVisible();
    await client.post("/sandbox/blocks", { currency: "BTC", count: 1 });
    await expect(page.getByText("Confirmations: 1 of 2")).toBeVisible();
    await client.post("/sandbox/blocks", { currency: "BTC", count: 1 });
    await expect(page.getByRole("heading", { name: "Invoice paid" })).toBeVisible({ timeout: 15_000 });
    expect(await page.evaluate(() => (window as unknown as { marker?: string }).marker)).toBe("same page");
    await expect(page.getByRole("link", { name: /Return to/ })).toHaveAttribute(
      "href",
      `${baseURL}/?paid=${counter}`,
    );
    await testInfo.attach("checkout-paid-phone", {
      body: await capture(page, { fullPage: true }),
      contentType: "image/png",
    });
    await page.waitForURL(`${baseURL}/?paid=${counter}`, { timeout: 15_000 });
    await api.dispose();
  });

  test("an underpayment asks for the rest while the timer runs", async ({ page, client, baseURL }) => {
    const invoice = await createInvoice(client, baseURL!, { sender_currency: "BTC" });
    await page.goto(invoice.path);
    await readAndPay(page, client, { times: 2n });
    await client.post("/sandbox/blocks", { currency: "BTC", count: 2 });
    // As the public API allows, the customer may still top up before the deadline.
    await expect(page.getByRole("heading", { name: "Not paid in full yet" })).toBeVisible({
      timeout: 15_000,
    });
    await expect(page.getByText("Amount still due")).toBeVisible();
    await expect(page.getByTestId("countdown")).toBeVisible();
  });

  test("an overpayment is paid, with a note about the difference", async ({ page, client, baseURL }) => {
    const invoice = await createInvoice(client, baseURL!, { sender_currency: "BTC" });
    await page.goto(invoice.path);
    await readAndPay(page, client, { over: 50_000n });
    await client.post("/sandbox/blocks", { currency: "BTC", count: 2 });
    await expect(page.getByRole("heading", { name: "Invoice paid" })).toBeVisible({ timeout: 15_000 });
    await expect(page.getByText(/0\.0005 BTC more than was due/)).toBeVisible();
    // The header shows what arrived, the invoice's amount under it.
    const arrived = units(invoice.sender_amount) + 50_000n;
    const asText = (value: bigint) => decimal(value).replace(/\.?0+$/, "");
    await expect(page.getByText("Amount paid", { exact: true })).toBeVisible();
    await expect(page.getByTestId("amount-due")).toHaveText(`${asText(arrived)} BTC`);
    await expect(page.getByTestId("amount-fiat")).toHaveText(
      `Invoice: ${asText(units(invoice.sender_amount))} BTC = 120.00 EUR`,
    );
  });

  test("a payment held for the merchant's review says so, instead of counting confirmations", async ({
    page,
    client,
    baseURL,
  }) => {
    // On e2e/screening-denylist.txt, which the test servers load (playwright.config.ts).
    const denied = "LTCe2eDenied11111111111111111111111";
    const invoice = await createInvoice(client, baseURL!, { sender_currency: "LTC" });
    const paid = await client.post("/sandbox/payments", {
      address: invoice.address,
      currency: "LTC",
      amount: invoice.sender_amount,
      sender_address: denied,
    });
    expect(paid.status()).toBe(201);
    await client.post("/sandbox/blocks", { currency: "LTC", count: 6 });
    await page.goto(invoice.path);
    await expect(page.getByRole("heading", { name: "Payment received, being checked" })).toBeVisible({
      timeout: 15_000,
    });
    await expect(page.getByText(/nothing more to do or to send/)).toBeVisible();
    await expect(page.getByText(/^Confirmations:/)).toHaveCount(0);
    await expectAccessible(page);
  });

  test("a partial-pay invoice shows what is paid and what remains, then completes", async ({
    page,
    client,
    baseURL,
  }) => {
    const invoice = await createInvoice(client, baseURL!, {
      sender_currency: "BTC",
      type: "good_until_expired",
    });
    await page.goto(invoice.path);
    await readAndPay(page, client, { times: 4n });
    await client.post("/sandbox/blocks", { currency: "BTC", count: 2 });
    await expect(page.getByRole("heading", { name: "Not paid in full yet" })).toBeVisible({
      timeout: 15_000,
    });
    await expect(page.getByText("Amount still due")).toBeVisible();
    await readAndPay(page, client);
    await client.post("/sandbox/blocks", { currency: "BTC", count: 2 });
    await expect(page.getByRole("heading", { name: "Invoice paid" })).toBeVisible({ timeout: 15_000 });
  });

  test("two tabs agree, and a reload resumes the same state", async ({ context, client, baseURL }) => {
    const invoice = await createInvoice(client, baseURL!);
    const first = await context.newPage();
    const second = await context.newPage();
    await first.goto(invoice.path);
    await second.goto(invoice.path);
    await first.getByRole("button", { name: /^LTC/ }).click();
    await expect(second.getByText("Amount to send")).toBeVisible({ timeout: 10_000 });
    const address = async (page: Page) => (await page.locator("output").nth(1).textContent())!.trim();
    expect(await address(second)).toBe(await address(first));
    await first.reload();
    expect(await address(first)).toBe(await address(second));
  });

  test("counts down by the server's clock when the device clock is hours off", async ({
    page,
    client,
    baseURL,
  }) => {
    const invoice = await createInvoice(client, baseURL!, { sender_currency: "BTC" });
    await page.addInitScript(() => {
      const realNow = Date.now.bind(Date);
      Date.now = () => realNow() + 3 * 60 * 60 * 1000;
    });
    await page.goto(invoice.path);
    await expect(page.getByTestId("countdown")).toHaveText(/^1[45]:\d\d$/);
  });

  test("shows the merchant's text as text, never as HTML", async ({ page, client, baseURL }) => {
    const invoice = await createInvoice(client, baseURL!, {
      title: "<b>Bold</b> <img src=x onerror=alert(1)>",
      description: "<script>alert(1)</script>",
    });
    await page.goto(invoice.path);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(
      "<b>Bold</b> <img src=x onerror=alert(1)>",
    );
    await expect(page.getByText("<script>alert(1)</script>")).toBeVisible();
    expect(await page.locator("main b, main img[src='x']").count()).toBe(0);
  });

  test("an unknown link shows a friendly page", async ({ page }) => {
    const response = await page.goto("/pay/no-such-invoice-token");
    expect(response!.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "We can't find this payment link" })).toBeVisible();
    expect(response!.headers()["x-robots-tag"]).toContain("noindex");
  });

  test("works on a desktop and in dark mode", async ({ page, client, baseURL }, testInfo) => {
    const invoice = await createInvoice(client, baseURL!, { sender_currency: "ETH" });
    await page.emulateMedia({ colorScheme: "dark" });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(invoice.path);
    await expect(page.getByText("Amount to send")).toBeVisible();
    await expectAccessible(page);
    await testInfo.attach("checkout-pay-desktop-dark", {
      body: await capture(page, { fullPage: true }),
      contentType: "image/png",
    });
    await page.setViewportSize({ width: 320, height: 700 });
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
  });
});

test.describe("hosted checkout: what is owed", () => {
  test("a short payment says at once what is still due, and where, each state at 375 and 1280 px", async ({
    page,
    client,
    baseURL,
  }) => {
    const invoice = await createInvoice(client, baseURL!);
    await page.setViewportSize(PHONE);
    await page.goto(invoice.path);
    await expect(page.getByTestId("amount-due")).toHaveText("120.00 EUR");
    // Choosing a coin makes its amount the header at once, fiat on the line below, without a reload.
    // A coin no test mines: on BTC, another test's blocks could confirm the payment before the page
    // says it has none yet (e2e/fixtures.ts, UNMINED).
    await page.getByRole("button", { name: new RegExp(`^${UNMINED}`) }).click();
    await expect(page.getByText("Amount to send")).toBeVisible();
    const toSend = (await page.getByRole("status").filter({ hasText: /^\d/ }).first().textContent())!;
    await expect(page.getByTestId("amount-due")).toHaveText(`${grouped(toSend)} ${UNMINED}`);
    await expect(page.getByTestId("amount-fiat")).toHaveText("= 120.00 EUR");
    // A tap on the QR code copies what it encodes: the same URI as "Open in wallet".
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.getByRole("button", { name: /^QR code for paying/ }).click();
    await expect(page.getByText("Copied", { exact: true })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
      await page.getByRole("link", { name: "Open in wallet" }).getAttribute("href"),
    );

    const { address } = await readAndPay(page, client, { times: 2n, currency: UNMINED });
    const remaining = units(toSend) - units(toSend) / 2n;
    const remainingText =
      `${remaining / 100_000_000n}.${(remaining % 100_000_000n).toString().padStart(8, "0")}`.replace(
        /\.?0+$/,
        "",
      );
    // No block mined: the payment is only seen, and the page already asks for the rest.
    await expect(page.getByRole("heading", { name: "Not paid in full yet" })).toBeVisible();
    await expect(page.getByText("Confirmations: 0 of 20")).toBeVisible();
    await expect(page.getByText(/close this page/)).toHaveCount(0);
    await expect(page.getByTestId("amount-due")).toHaveText(`${grouped(remainingText)} ${UNMINED}`);
    await expect(page.getByTestId("amount-fiat")).toHaveText(`of ${grouped(toSend)} ${UNMINED} = 120.00 EUR`);
    await expect(page.getByText("Amount still due")).toBeVisible();
    await expect(page.getByRole("status").filter({ hasText: /^\d/ }).first()).toHaveText(remainingText);
    await expect(page.locator("output").nth(1)).toHaveText(address);
    await expect(page.getByRole("link", { name: "Open in wallet" })).toHaveAttribute(
      "href",
      `dogecoin:${address}?amount=${remainingText}`,
    );
    // Only the status notice is announced: not the countdown, not the amounts.
    const liveAncestor = (selector: string) =>
      page
        .locator(selector)
        .first()
        .evaluate((el) => el.parentElement?.closest("[aria-live]")?.tagName ?? null);
    expect(await liveAncestor("[data-testid=countdown]")).toBeNull();
    expect(await liveAncestor("[data-testid=amount-due]")).toBeNull();
    expect(await liveAncestor("h2:text('Not paid in full yet')")).not.toBeNull();
    await checkBothWidths(page, test.info(), "short-payment-seen");

    // The rest arrives: nothing is owed any more, and only now may the customer close the page.
    await readAndPay(page, client, { currency: UNMINED });
    await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible();
    await expect(page.getByText(/You can close this page/)).toBeVisible();
    await expect(page.getByTestId("amount-due")).toHaveText(`${grouped(toSend)} ${UNMINED}`);
    await expectAccessible(page);
  });

  test("without JavaScript the coin is chosen with a form and the status shows on reload", async ({
    browser,
    client,
    baseURL,
  }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
    const page = await context.newPage();
    const invoice = await createInvoice(client, baseURL!);
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto(invoice.path);
    // A coin no test mines: on LTC, another test's blocks could confirm the payment before the reload
    // shows it received (e2e/fixtures.ts, UNMINED).
    await page.getByRole("button", { name: new RegExp(`^${UNMINED}`) }).click();
    await expect(page).toHaveURL(`${baseURL}${invoice.path}`);
    await expect(page.getByText("Amount to send")).toBeVisible();
    await expect(page.getByTestId("amount-due")).toHaveText(new RegExp(`^[\\d.]+ ${UNMINED}$`));
    const amount = (await page.getByRole("status").filter({ hasText: /^\d/ }).first().textContent())!.trim();
    const address = (await page.locator("output").nth(1).textContent())!.trim();
    await shot(page, "no-js-chosen-375");
    const paid = await client.post("/sandbox/payments", { address, currency: UNMINED, amount });
    expect((await paid.json()).data.is_recognized).toBe(true);
    await page.reload();
    await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible();

    // A refused choice comes back to the page with a message, never an error page.
    const other = await createInvoice(client, baseURL!);
    const refused = await page.request.post(`${other.path}/currency`, {
      form: { currency: "NOPE" },
      maxRedirects: 0,
    });
    expect(refused.status()).toBe(303);
    await page.goto(refused.headers().location!);
    await expect(page.getByRole("alert")).toHaveText(/could not be chosen/);
    await expect(page.getByRole("button", { name: /^BTC/ })).toBeVisible();
    await context.close();
  });

  test("a paid invoice keeps a printable receipt, the return to the shop can wait, each state at 375 and 1280 px", async ({
    page,
    client,
    baseURL,
  }) => {
    const invoice = await createInvoice(client, baseURL!, { sender_currency: "BTC" });
    await page.setViewportSize(PHONE);
    await page.goto(invoice.path);
    const amount = (await page.getByRole("status").filter({ hasText: /^\d/ }).first().textContent())!.trim();
    const address = (await page.locator("output").nth(1).textContent())!.trim();
    const paid = (await (await client.post("/sandbox/payments", { address, currency: "BTC", amount })).json())
      .data;
    await client.post("/sandbox/blocks", { currency: "BTC", count: 2 });
    await expect(page.getByRole("heading", { name: "Invoice paid" })).toBeVisible({ timeout: 15_000 });
    await page.getByRole("button", { name: "Stay on this page" }).click();
    await expect(page.getByText(/Returning to/)).toHaveCount(0);
    const receipt = page.getByRole("region", { name: "Receipt" });
    await expect(receipt.getByTestId("receipt-txid")).toHaveText(paid.txid);
    await expect(receipt.getByText(`${amount} BTC`).first()).toBeVisible();
    await expect(receipt.getByText("120.00 EUR")).toBeVisible();
    await expect(receipt.getByText(/^\d{4}-\d\d-\d\d \d\d:\d\d UTC$/)).toBeVisible();
    // The rate shown is the one the amount was priced at, to six significant digits, grouped:
    // amount × rate is 120 EUR to within the rounding of its sixth digit (and one satoshi's worth).
    const rateText = (await receipt.getByText(/^1 BTC = /).textContent())!.replace(/^1 BTC = | EUR$/g, "");
    expect(rateText).toMatch(/^\d{1,3}(\u202f\d{3})*(\.\d+)?$/);
    expect(rateText.replace(/\D/g, "").replace(/^0+/, "").replace(/0+$/, "").length).toBeLessThanOrEqual(6);
    const rate = units(rateText.replaceAll("\u202f", ""));
    const worth = units(amount) * rate;
    const slack = (120n * 100_000_000n * 100_000_000n) / 100_000n + rate;
    expect(worth >= 120n * 100_000_000n * 100_000_000n - slack).toBe(true);
    expect(worth <= 120n * 100_000_000n * 100_000_000n + slack).toBe(true);
    await expect(receipt.getByRole("button", { name: "Print" })).toBeVisible();
    await checkBothWidths(page, test.info(), "receipt");
  });

  test("offers 'Open in wallet' only where the network has a URI scheme", async ({
    page,
    client,
    baseURL,
  }) => {
    // Customers see token names as wallets show them, not Kassa's codes.
    await page.setViewportSize(PHONE);
    for (const [currency, shown] of [
      ["TRX", "TRX"],
      ["USDTT", "USDT (TRC-20)"],
      ["XRP", "XRP"],
    ] as const) {
      const invoice = await createInvoice(client, baseURL!, { sender_currency: currency });
      await page.goto(invoice.path);
      await expect(page.getByText("Amount to send")).toBeVisible();
      // Digits grouped by narrow no-break spaces ("1 085.427136 TRX"), as lib/format-money.ts writes them.
      await expect(page.getByTestId("amount-due")).toHaveText(/^[\d.\u202f]+ [A-Z]+/);
      expect((await page.getByTestId("amount-due").textContent())!.replace(/^[\d.\u202f]+ /, "")).toBe(shown);
      await expect(page.getByRole("link", { name: "Open in wallet" })).toHaveCount(0);
    }
    await shot(page, "no-wallet-link-xrp-375");
    const invoice = await createInvoice(client, baseURL!, { sender_currency: "LTC" });
    await page.goto(invoice.path);
    await expect(page.getByRole("link", { name: "Open in wallet" })).toHaveAttribute("href", /^litecoin:/);
  });
});

test.describe("hosted checkout with a short timer", () => {
  let api: APIRequestContext;
  test.beforeAll(async () => {
    api = await playwrightRequest.newContext({ baseURL: shortTimer.baseURL });
  });
  test.afterAll(() => api.dispose());

  test("expires, says so, and offers the way back", async ({ page }) => {
    const client = signedClient(api, await createMerchant("Short Timer Shop", shortTimer.dataDir));
    const invoice = await createInvoice(client, shortTimer.baseURL, { sender_currency: "BTC" });
    await page.goto(`${shortTimer.baseURL}${invoice.path}`);
    await expect(page.getByTestId("countdown")).toHaveText(/^00:0\d$/);
    await expect(page.getByRole("heading", { name: "This invoice has expired" })).toBeVisible({
      timeout: 20_000,
    });
    // Someone who paid a moment ago is told what happens to that payment.
    await expect(
      page.getByText(/If you sent one in the last few minutes, keep this page open/),
    ).toBeVisible();
    await expect(page.getByText("Amount that was due", { exact: true })).toBeVisible();
    await expect(page.getByRole("link", { name: /Back to/ })).toBeVisible();
  });

  test("an underpayment not topped up by the deadline says what happened and that refund instructions were e-mailed", async ({
    page,
  }) => {
    const client = signedClient(api, await createMerchant("Short Timer Shop", shortTimer.dataDir));
    const invoice = await createInvoice(client, shortTimer.baseURL, { sender_currency: "BTC" });
    // Half of what is due, paid at once from the invoice the API answered: read from the page, the
    // payment could come after the 8 seconds on a loaded machine, and be a late payment instead.
    const half = units(invoice.sender_amount) / 2n;
    const paid = await client.post("/sandbox/payments", {
      address: invoice.address,
      currency: "BTC",
      amount: `${half / 100_000_000n}.${(half % 100_000_000n).toString().padStart(8, "0")}`,
    });
    expect((await paid.json()).data.is_recognized).toBe(true);
    await page.goto(`${shortTimer.baseURL}${invoice.path}`);
    await client.post("/sandbox/blocks", { currency: "BTC", count: 2 });
    await expect(page.getByRole("heading", { name: "The payment was less than the amount due" })).toBeVisible(
      { timeout: 20_000 },
    );
    await expect(page.getByText(/full refund were sent by e-mail/)).toBeVisible();
    await expect(page.getByRole("link", { name: /Back to/ })).toHaveAttribute(
      "href",
      `${shortTimer.baseURL}/?failed=${counter}`,
    );
  });

  test("a payment after expiry shows at once, as one message, and after a reload", async ({ page }) => {
    const client = signedClient(api, await createMerchant("Short Timer Shop", shortTimer.dataDir));
    const invoice = await createInvoice(client, shortTimer.baseURL, { sender_currency: "BTC" });
    await page.setViewportSize(PHONE);
    await page.goto(`${shortTimer.baseURL}${invoice.path}`);
    // What to send, from the invoice the API answered rather than from the page: a page drawn slowly on
    // a loaded machine may already be past its 8 seconds, with no amount left to read.
    const address: string = invoice.address;
    const amount = (invoice.sender_amount as string).replace(/\.?0+$/, "");
    await expect(page.getByRole("heading", { name: "This invoice has expired" })).toBeVisible({
      timeout: 20_000,
    });
    const paid = await client.post("/sandbox/payments", { address, currency: "BTC", amount });
    expect((await paid.json()).data.is_recognized).toBe(true);
    const late = page.getByRole("heading", { name: "Payment received after the invoice closed" });
    await expect(late).toBeVisible({ timeout: 15_000 });
    await expect(page.getByText(`${amount} BTC arrived after this invoice expired`)).toBeVisible();
    await expect(page.getByText(/Short Timer Shop, who will be in touch/)).toBeVisible();
    await expect(page.getByRole("heading", { name: "This invoice has expired" })).toHaveCount(0);
    await expect(page.getByText("Amount to send")).toHaveCount(0);
    await expectAccessible(page);
    await shot(page, "late-payment-375");
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.reload();
    await expect(late).toBeVisible();
    await expect(page.getByRole("heading", { level: 2 })).toHaveCount(1);
    await expect(page.getByText(/ask the shop for a new invoice/)).toHaveCount(0);
    await expectAccessible(page);
    await shot(page, "late-payment-1280");
  });
});

test.describe("hosted checkout: pay with another currency", () => {
  const SWITCH_SHOTS = "/tmp/shots-switch";
  const switchShot = async (page: Page, name: string) => {
    const body = await capture(page, { fullPage: true, path: `${SWITCH_SHOTS}/${name}.png` });
    await test.info().attach(name, { body, contentType: "image/png" });
  };
  const amountToSend = async (page: Page) =>
    (await page.getByRole("status").filter({ hasText: /^\d/ }).first().textContent())!.trim();
  const shownAddress = async (page: Page) => (await page.locator("output").nth(1).textContent())!.trim();

  test("the customer switches coins without a reload, and money sent before still counts, each state at 375 and 1280 px", async ({
    page,
    client,
    baseURL,
  }) => {
    const invoice = await createInvoice(client, baseURL!);
    await page.setViewportSize(PHONE);
    await page.goto(invoice.path);
    // The first coin is one no test mines: on BTC, another test's blocks could confirm the payment
    // to the old address before the page shows it received (e2e/fixtures.ts, UNMINED).
    const first = UNMINED;
    await page.getByRole("button", { name: new RegExp(`^${first}`) }).click();
    await expect(page.getByText("Amount to send")).toBeVisible();
    const firstAmount = await amountToSend(page);
    const firstAddress = await shownAddress(page);
    await expect(page.getByTestId("amount-due")).toHaveText(`${firstAmount} ${first}`);
    await page.evaluate(() => {
      (window as unknown as { marker: string }).marker = "same page";
    });

    // The list opens below the amount, focus on its heading; the address is put away meanwhile.
    const switchButton = page.getByRole("button", { name: "Pay with another currency" });
    await switchButton.click();
    const heading = page.getByRole("heading", { name: "Pay with another currency" });
    await expect(heading).toBeFocused();
    await expect(page.getByRole("button", { name: /^LTC/ })).toBeVisible();
    await expect(page.getByRole("button", { name: new RegExp(`^${first}`) })).toHaveCount(0);
    await expect(page.getByText("Amount to send")).toHaveCount(0);
    await expect(page.getByTestId("countdown")).toBeVisible();
    await checkBothWidths(page, test.info(), "switch-list");

    // Keeping the coin goes back, focus on the button that opened the list.
    await page.getByRole("button", { name: `Keep paying with ${first}` }).click();
    await expect(switchButton).toBeFocused();
    expect(await shownAddress(page)).toBe(firstAddress);

    // By keyboard: open, move to LTC, choose it.
    await switchButton.press("Enter");
    await expect(heading).toBeFocused();
    await page.getByRole("button", { name: /^LTC/ }).focus();
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("amount-due")).toHaveText(/ LTC$/);
    const ltcAmount = await amountToSend(page);
    await expect(page.getByTestId("amount-due")).toHaveText(`${ltcAmount} LTC`);
    await expect(page.getByTestId("amount-fiat")).toHaveText("= 120.00 EUR");
    const ltcAddress = await shownAddress(page);
    expect(ltcAddress).not.toBe(firstAddress);
    // Focus lands on the new amount, and the live region says it once.
    await expect(page.getByTestId("amount-due")).toBeVisible();
    expect(
      await page.evaluate(() =>
        document.activeElement?.contains(document.querySelector("[data-testid=amount-due]")),
      ),
    ).toBe(true);
    const live = page.getByTestId("status-notices");
    await expect(live).toHaveText(`Now paying with ${ltcAmount} LTC, to the new address below.`);
    await expect(page.getByTestId("switch-news")).toHaveCount(1);
    await expect(page.getByRole("link", { name: "Open in wallet" })).toHaveAttribute(
      "href",
      new RegExp(`^litecoin:${ltcAddress}\\?amount=${ltcAmount.replace(".", "\\.")}$`),
    );
    await expect(page.getByTestId("countdown")).toHaveText(/^1[45]:\d\d$/);
    expect(await page.evaluate(() => (window as unknown as { marker?: string }).marker)).toBe("same page");
    await checkBothWidths(page, test.info(), "switched-to-ltc");

    // The coins the customer had already sent to the first address arrive: they count for this invoice.
    const paid = await client.post("/sandbox/payments", {
      address: firstAddress,
      currency: first,
      amount: firstAmount,
    });
    expect((await paid.json()).data.is_recognized).toBe(true);
    await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible({ timeout: 15_000 });
    await expect(page.getByText(`${firstAmount} ${first} seen on the Dogecoin network`)).toBeVisible();
    // Its confirmations are Dogecoin's (20 here), not Litecoin's (6).
    await expect(page.getByText("Confirmations: 0 of 20")).toBeVisible();
    await expect(switchButton).toHaveCount(0);
    await expect(page.getByTestId("switch-news")).toHaveCount(0);
    await checkBothWidths(page, test.info(), "old-address-paid");

    // Switching once a payment was seen is refused, with a clear 400.
    const token = invoice.path.split("/").pop();
    const refused = await page.request.post(`/api/checkout/${token}/currency`, {
      data: { currency: "ETH" },
    });
    expect(refused.status()).toBe(400);
    expect((await refused.json()).errors.currency).toMatch(/already seen/);
  });

  test("a currency the merchant fixed offers no switch, and the API refuses one", async ({
    page,
    client,
    baseURL,
  }) => {
    const invoice = await createInvoice(client, baseURL!, { sender_currency: "BTC" });
    await page.setViewportSize(PHONE);
    await page.goto(invoice.path);
    await expect(page.getByText("Amount to send")).toBeVisible();
    await expect(page.getByRole("button", { name: "Pay with another currency" })).toHaveCount(0);
    const token = invoice.path.split("/").pop();
    const refused = await page.request.post(`/api/checkout/${token}/currency`, { data: { currency: "LTC" } });
    expect(refused.status()).toBe(400);
    expect(await refused.json()).toEqual({
      errors: { currency: "This invoice is paid in BTC; the currency cannot be changed." },
    });
    await expectAccessible(page);
    await switchShot(page, "merchant-fixed-375");
  });
});
