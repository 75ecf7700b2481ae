import { mkdirSync } from "node:fs";
import type { Page, TestInfo } from "@playwright/test";
import { cli, createMerchant, expect, sandboxCredit, signedClient, test } from "../fixtures";
import { capture, expectAccessible } from "./page-checks";
import { signIn } from "./sign-in";
import { confirmStepUp } from "./step-up";
import { checkBothWidths, DESKTOP, PHONE } from "./widths";

/** On e2e/screening-denylist.txt, which the test servers load (playwright.config.ts). */
const DENIED = "LTCe2eDenied11111111111111111111111";
/** U+202F, the narrow no-break space the dashboard groups digits with (lib/digits.ts). */
const NNBSP = "\u202f";
/** A whole part in groups of three ("12 345"), as every dashboard amount shows it. */
const GROUPED = `\\d{1,3}(?:${NNBSP}\\d{3})+`;

async function shoot(page: Page, testInfo: TestInfo, name: string) {
  mkdirSync("/tmp/shots-ui", { recursive: true });
  const body = await capture(page, { path: `/tmp/shots-ui/${name}.png`, fullPage: true });
  await testInfo.attach(name, { body, contentType: "image/png" });
}

test.describe("amounts read alike on every dashboard page", () => {
  test("the overview chart's labels and table group digits as the balances do", async ({
    page,
  }, testInfo) => {
    const merchant = await createMerchant("Big Chart Shop");
    const id = String(merchant.merchantId);
    await sandboxCredit(id, "EUR", "25000");
    await page.setViewportSize({ width: 375, height: 800 });
    await signIn(page, merchant);
    const balance = page.getByText(`25${NNBSP}000.00 EUR`, { exact: true });
    await expect(balance).toBeVisible();
    const legend = page.getByRole("list", { name: "Legend and 14-day totals" });
    await expect(legend.getByRole("listitem").filter({ hasText: "In" })).toHaveText(
      new RegExp(`^\\s*In ${GROUPED}\\.\\d{2} USD$`),
    );
    const chart = page.getByRole("img", { name: /Bar chart of money in and out/ });
    await expect(chart).toHaveAttribute("aria-label", new RegExp(`Largest day: ${GROUPED}\\.\\d{2} USD\\.$`));
    await expect(chart.getByText(new RegExp(`^\\+${GROUPED}\\.\\d{2} USD$`))).toBeVisible();
    await expect(chart.getByText(new RegExp(`^−${GROUPED}\\.\\d{2} USD$`))).toBeVisible();
    await page.getByText("Day by day").click();
    const today = new Date().toISOString().slice(0, 10);
    await expect(page.getByRole("row", { name: today })).toHaveText(
      new RegExp(`^${today}${GROUPED}\\.\\d{2} USD0\\.00 USD${GROUPED}\\.\\d{2} USD$`),
    );
    await expectAccessible(page);
    await shoot(page, testInfo, "amounts-overview-phone");
  });

  test("a held payment and a payout waiting for approval show grouped amounts", async ({
    page,
    request,
  }, testInfo) => {
    const merchant = await createMerchant("Big Amounts Shop");
    const id = String(merchant.merchantId);
    const api = signedClient(request, merchant);
    const take = await api.post("/addresses/take", { foreign_id: "big-review", currency: "LTC" });
    const address = (await take.json()).data.address as string;
    const paid = await api.post("/sandbox/payments", {
      address,
      currency: "LTC",
      amount: "1234.5",
      sender_address: DENIED,
    });
    expect(paid.status()).toBe(201);
    expect((await api.post("/sandbox/blocks", { currency: "LTC", count: 6 })).status()).toBe(201);

    await sandboxCredit(id, "BTC", "3000");
    await cli("merchants", "limits", "--merchant", id, "--currency", "BTC", "--per-withdrawal", "0.01");
    const held = await api.post("/withdrawal/crypto", {
      currency: "BTC",
      amount: "1500",
      address: "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu",
      foreign_id: `big-approval-${Date.now()}`,
      end_user_reference: "payee-big",
      sender_type: "legal",
      sender_data: { legal_name: "Shop GmbH", country_of_registration: "DEU" },
      receiver_type: "self",
    });
    expect((await held.json()).data.status).toBe("pending");

    await page.setViewportSize({ width: 375, height: 800 });
    await signIn(page, merchant);
    await page.goto("/dashboard/reviews");
    // Screening runs when the deposit confirms, in a job: the page's list refetches until it is held.
    const item = page.getByRole("listitem").filter({ hasText: "Risk score 100" });
    await expect(item).toBeVisible({ timeout: 30_000 });
    await expect(item.getByText(`1${NNBSP}234.5 LTC`, { exact: true })).toBeVisible();
    await expectAccessible(page);
    await shoot(page, testInfo, "amounts-reviews-phone");
    await item.getByRole("button", { name: "Release" }).click();
    await item.getByRole("button", { name: "Release payment" }).click();
    await confirmStepUp(page, merchant.password);
    await expect(page.getByText(`Payment of 1${NNBSP}234.5 LTC released: it is credited.`)).toBeVisible();
    const decided = page.getByRole("table");
    await expect(decided.getByRole("cell", { name: `1${NNBSP}234.5 LTC` })).toBeVisible();
    await expectAccessible(page);

    await page.goto("/dashboard/approvals");
    const pending = page.getByRole("listitem").filter({ hasText: "Asked for through the API" });
    await expect(pending.getByText(`1${NNBSP}500 BTC`, { exact: true })).toBeVisible();
    await expect(pending).toContainText(new RegExp(`${GROUPED}(?:\\.\\d+)? BTC reserved, fees included`));
    await expectAccessible(page);
    await shoot(page, testInfo, "amounts-approvals-phone");
  });
});

/** Cents of a wire amount, rounded to the nearest, and grouped: "1 297.87" (the test's own arithmetic). */
function cents(wire: string): string {
  const [whole, fraction] = wire.split(".");
  const units = BigInt(whole!) * 100_000_000n + BigInt(fraction!.padEnd(8, "0"));
  const rounded = (units + 500_000n) / 1_000_000n;
  const text = String(rounded / 100n).replace(/\B(?=(\d{3})+$)/g, NNBSP);
  return `${text}.${String(rounded % 100n).padStart(2, "0")}`;
}

test.describe("money reads like money on the checkout and the dashboard alike", () => {
  test("fiat to its cents with the exact amount on hover, crypto trimmed, a grouped rate, each page at 375 and 1280 px", async ({
    page,
    request,
  }, testInfo) => {
    const merchant = await createMerchant("Money Shop");
    const api = signedClient(request, merchant);
    const created = await api.post("/invoices/create", {
      end_user_reference: "money",
      timer: true,
      title: "A precise order",
      foreign_id: `money-${Date.now()}`,
      currency: "EUR",
      amount: "1297.86828788",
      url_success: "http://shop.example/paid",
      url_failed: "http://shop.example/failed",
      email_user: "buyer@example.com",
      sender_type: "natural",
      sender_data: { first_name: "Ada", last_name: "Lovelace", date_of_birth: "1990-12-10" },
    });
    expect(created.status()).toBe(201);
    const invoice = (await created.json()).data;

    await page.setViewportSize(PHONE);
    await page.goto(new URL(invoice.url).pathname);
    const due = page.getByTestId("amount-due");
    await expect(due).toHaveText(`1${NNBSP}297.87 EUR`);
    await expect(due).toHaveAttribute(
      "title",
      `Exactly 1${NNBSP}297.86828788 EUR (shown rounded to the nearest)`,
    );
    await checkBothWidths(page, testInfo, "money-invoice");
    await page.getByRole("button", { name: /^BTC/ }).click();
    // Crypto to the digits it has: no trailing zeros, every digit the wallet must send.
    const toSend = (await page.getByRole("status").filter({ hasText: /^\d/ }).first().textContent())!.trim();
    await expect(due).toHaveText(`${toSend} BTC`);
    expect(toSend).toMatch(/^\d+(\.\d*[1-9])?$/);
    await expect(page.getByTestId("amount-fiat")).toHaveText(`= 1${NNBSP}297.87 EUR`);
    await checkBothWidths(page, testInfo, "money-checkout");

    const address = (await page.locator("output").nth(1).textContent())!.trim();
    expect((await api.post("/sandbox/payments", { address, currency: "BTC", amount: toSend })).status()).toBe(
      201,
    );
    expect((await api.post("/sandbox/blocks", { currency: "BTC", count: 2 })).status()).toBe(201);
    await expect(page.getByRole("heading", { name: "Invoice paid" })).toBeVisible({ timeout: 15_000 });
    await page.getByRole("button", { name: "Stay on this page" }).click();
    const receipt = page.getByRole("region", { name: "Receipt" });
    await expect(receipt.getByText(`1${NNBSP}297.87 EUR`)).toBeVisible();
    // The rate to six significant digits, grouped: "1 BTC = 59 884.3 EUR", never 8 decimals.
    const rate = (await receipt.getByText(/^1 BTC = /).textContent())!.replace(/^1 BTC = | EUR$/g, "");
    expect(rate).toMatch(new RegExp(`^${GROUPED}(\\.\\d+)?$`));
    expect(rate.replace(/\D/g, "").replace(/0+$/, "").length).toBeLessThanOrEqual(6);
    await checkBothWidths(page, testInfo, "money-receipt");

    await signIn(page, merchant);
    const balances = (await (await api.post("/accounts/list", {})).json()).data as {
      currency: string;
      balance: string;
    }[];
    const eur = balances.find((b) => b.currency === "EUR")!.balance;
    await expect(page.getByText(`${cents(eur)} EUR`, { exact: true })).toBeVisible();
    await checkBothWidths(page, testInfo, "money-overview");
    await page.goto("/dashboard/transactions");
    // The phone's stacked rows and the desktop's table are both in the page; one of them shows.
    for (const viewport of [DESKTOP, PHONE]) {
      await page.setViewportSize(viewport);
      await expect(
        page.getByText(`1${NNBSP}297.87 EUR`, { exact: true }).locator("visible=true"),
      ).toHaveCount(1);
    }
    await expect(page.getByText(/\d\.\d{3,} EUR/)).toHaveCount(0);
    await checkBothWidths(page, testInfo, "money-explorer");
  });
});
