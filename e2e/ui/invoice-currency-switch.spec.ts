import AxeBuilder from "@axe-core/playwright";
import type { Page, TestInfo } from "@playwright/test";
import { createMerchant, expect, signedClient, test } from "../fixtures";
import { signIn } from "./sign-in";

/**
 * The dashboard's invoice page for an invoice paid in two coins after the customer switched from BTC
 * to LTC (README "Pay with another currency"): a third of the BTC price to the BTC address, then the
 * rest to the LTC address. Expected figures come from the sandbox's default USD prices (BTC 65000,
 * LTC 80, EUR 1.08), the 0.5% spread and the 0.5% deposit fee, computed here in 10^-8 units as
 * e2e/api/currency-switch-money.spec.ts does, never read back from the page or the API.
 */
const USD = { EUR: 108_000_000n, BTC: 6_500_000_000_000n, LTC: 8_000_000_000n };
type Coin = keyof typeof USD;

const units = (amount: string) => {
  const [whole, fraction = ""] = amount.split(".");
  return BigInt(whole!) * 100_000_000n + BigInt(fraction.padEnd(8, "0"));
};
const decimal = (value: bigint) => `${value / 10n ** 8n}.${String(value % 10n ** 8n).padStart(8, "0")}`;
/** As the dashboard shows crypto: every significant digit, no trailing zeros. */
const crypto = (value: bigint, code: string) => `${decimal(value).replace(/\.?0+$/, "")} ${code}`;
/** As the dashboard shows a fiat amount: every significant digit, at least the cents. */
const fiat = (value: bigint, code: string) => {
  const [whole, fraction] = decimal(value).split(".");
  return `${whole}.${fraction!.replace(/0+$/, "").padEnd(2, "0")} ${code}`;
};
const divideUp = (a: bigint, b: bigint) => (a + b - 1n) / b;
/** What `amount` of `to` costs in `from`, the spread taken, rounded up. */
const costIn = (amount: bigint, to: Coin, from: Coin) =>
  divideUp(amount * USD[to] * 1_000n, USD[from] * 995n);
/** What `amount` of `from` brings in `to`, less the spread, rounded down. */
const worthOf = (amount: bigint, from: Coin, to: Coin) => (amount * USD[from] * 995n) / (USD[to] * 1_000n);
const feeOf = (gross: bigint) => divideUp(gross * 5n, 1_000n);

async function expectAccessible(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(serious.map((v) => `${v.id}: ${v.help} (${v.nodes[0]?.target})`)).toEqual([]);
}

async function shoot(page: Page, testInfo: TestInfo, name: string) {
  const body = await page.screenshot({ fullPage: true });
  await testInfo.attach(name, { body, contentType: "image/png" });
}

for (const width of [1280, 375]) {
  test(`an invoice paid in two coins after a switch shows each coin's worth, the shortfall in EUR and net credited (${width} px)`, async ({
    page,
    request,
  }, testInfo) => {
    const merchant = await createMerchant("Two Coins Shop");
    const client = signedClient(request, merchant);
    const info = async (id: number) => (await client.post("/transactions/info", { id })).json();
    const created = await client.post("/invoices/create", {
      end_user_reference: "two-coins-page",
      timer: true,
      type: "good_until_expired",
      title: "Two coins",
      foreign_id: `two-coins-page-${Date.now()}-${width}`,
      currency: "EUR",
      amount: "100",
      url_success: "https://shop.example/ok",
      url_failed: "https://shop.example/failed",
      email_user: "buyer@example.com",
      sender_type: "natural",
      sender_data: { first_name: "Ada", last_name: "Lovelace", date_of_birth: "1990-12-10" },
    });
    expect(created.status()).toBe(201);
    const { id, url } = (await created.json()).data;
    const token = url.split("/pay/")[1];
    const choose = async (currency: string) => {
      const response = await request.post(`/api/checkout/${token}/currency`, { data: { currency } });
      expect(response.status()).toBe(200);
      return (await response.json()) as { address: string; sender_amount: string };
    };
    const btc = await choose("BTC");
    const ltc = await choose("LTC");

    const btcPaid = units(btc.sender_amount) / 3n;
    const btcGross = worthOf(btcPaid, "BTC", "EUR");
    const sent = await client.post("/sandbox/payments", {
      address: btc.address,
      currency: "BTC",
      amount: decimal(btcPaid),
    });
    expect(sent.status()).toBe(201);
    expect((await client.post("/sandbox/blocks", { currency: "BTC", count: 2 })).status()).toBe(201);
    await expect
      .poll(async () => (await info(id)).additional_details.status_reason, { timeout: 15_000 })
      .toBe("awaiting_remainder");
    const shortInEur = 100n * 10n ** 8n - btcGross;
    const ltcDue = costIn(shortInEur, "EUR", "LTC");

    // Everything so far went to the BTC address: the page still says how short the invoice is.
    await page.setViewportSize({ width, height: 900 });
    await signIn(page, merchant);
    await page.goto(`/dashboard/invoices/${id}`);
    await expect(page.getByRole("heading", { name: "Two coins", level: 1 })).toBeVisible();
    const amounts = page.getByRole("region", { name: "Amounts" });
    const row = (label: string) =>
      amounts
        .locator("dt")
        .filter({ hasText: new RegExp(`^${label}$`) })
        .locator("xpath=following-sibling::dd[1]");
    await expect(row("Invoiced")).toHaveText("100.00 EUR");
    await expect(row("Received in BTC")).toHaveText(`${crypto(btcPaid, "BTC")} = ${fiat(btcGross, "EUR")}`);
    await expect(row("Received in LTC")).toHaveText("0 LTC");
    await expect(row("Shortfall")).toHaveText(
      `${fiat(shortInEur, "EUR")} (${crypto(ltcDue, "LTC")} at today's rate)`,
    );
    await expect(row("Net credited")).toHaveText(fiat(btcGross - feeOf(btcGross), "EUR"));
    await expectAccessible(page);
    await shoot(page, testInfo, `two-coins-short-${width}`);

    // The rest in LTC: both coins, each with its own worth, nothing short, no refund owed.
    const rest = await client.post("/sandbox/payments", {
      address: ltc.address,
      currency: "LTC",
      amount: decimal(ltcDue),
    });
    expect(rest.status()).toBe(201);
    expect((await client.post("/sandbox/blocks", { currency: "LTC", count: 6 })).status()).toBe(201);
    await expect.poll(async () => (await info(id)).status, { timeout: 15_000 }).toBe("confirmed");
    const ltcGross = worthOf(ltcDue, "LTC", "EUR");
    await page.reload();
    await expect(row("Received in LTC")).toHaveText(`${crypto(ltcDue, "LTC")} = ${fiat(ltcGross, "EUR")}`);
    await expect(row("Received in BTC")).toHaveText(`${crypto(btcPaid, "BTC")} = ${fiat(btcGross, "EUR")}`);
    await expect(row("Shortfall")).toHaveCount(0);
    await expect(row("Excess")).toHaveCount(0);
    const fee = feeOf(btcGross) + feeOf(ltcGross);
    await expect(row("Fee \\(fee_crypto_deposit\\)")).toHaveText(fiat(fee, "EUR"));
    await expect(row("Net credited")).toHaveText(fiat(btcGross + ltcGross - fee, "EUR"));
    await expect(page.getByRole("region", { name: /^Refund/ })).toHaveCount(0);
    await expectAccessible(page);
    await shoot(page, testInfo, `two-coins-confirmed-${width}`);
  });

  test(`an invoice that failed short after a switch owes back, in the old coin, what was paid to it (${width} px)`, async ({
    page,
    request,
  }, testInfo) => {
    const merchant = await createMerchant("Short Two Coins Shop");
    const client = signedClient(request, merchant);
    const info = async (id: number) => (await client.post("/transactions/info", { id })).json();
    const created = await client.post("/invoices/create", {
      end_user_reference: "two-coins-short",
      timer: true,
      type: "good_until_expired",
      title: "Two coins, short",
      foreign_id: `two-coins-short-${Date.now()}-${width}`,
      currency: "EUR",
      amount: "100",
      url_success: "https://shop.example/ok",
      url_failed: "https://shop.example/failed",
      email_user: "buyer@example.com",
      sender_type: "natural",
      sender_data: { first_name: "Ada", last_name: "Lovelace", date_of_birth: "1990-12-10" },
    });
    expect(created.status()).toBe(201);
    const { id, url } = (await created.json()).data;
    const token = url.split("/pay/")[1];
    const choose = async (currency: string) => {
      const response = await request.post(`/api/checkout/${token}/currency`, { data: { currency } });
      expect(response.status()).toBe(200);
      return (await response.json()) as { address: string; sender_amount: string };
    };
    const btc = await choose("BTC");
    await choose("LTC");
    const btcPaid = units(btc.sender_amount) / 3n;
    const btcGross = worthOf(btcPaid, "BTC", "EUR");
    const sent = await client.post("/sandbox/payments", {
      address: btc.address,
      currency: "BTC",
      amount: decimal(btcPaid),
    });
    expect(sent.status()).toBe(201);
    expect((await client.post("/sandbox/blocks", { currency: "BTC", count: 2 })).status()).toBe(201);
    await expect
      .poll(async () => (await info(id)).additional_details.status_reason, { timeout: 15_000 })
      .toBe("awaiting_remainder");

    await page.setViewportSize({ width, height: 900 });
    await signIn(page, merchant);
    // The sandbox panel's "expire now", as the merchant's own page sends it.
    const expired = await page.request.post(`/api/dashboard/sandbox/invoices/${id}`, {
      data: { action: "expire" },
      headers: { origin: new URL(page.url()).origin },
    });
    expect(expired.status()).toBe(201);
    await expect.poll(async () => (await info(id)).status, { timeout: 15_000 }).toBe("declined");

    await page.goto(`/dashboard/invoices/${id}`);
    await expect(page.getByRole("heading", { name: "Two coins, short", level: 1 })).toBeVisible();
    const amounts = page.getByRole("region", { name: "Amounts" });
    const row = (label: string) =>
      amounts
        .locator("dt")
        .filter({ hasText: new RegExp(`^${label}$`) })
        .locator("xpath=following-sibling::dd[1]");
    await expect(row("Received in BTC")).toHaveText(`${crypto(btcPaid, "BTC")} = ${fiat(btcGross, "EUR")}`);
    await expect(row("Received in LTC")).toHaveText("0 LTC");
    // Closed: how short it fell, in EUR, without a coin amount no one can pay any more.
    await expect(row("Shortfall")).toHaveText(fiat(100n * 10n ** 8n - btcGross, "EUR"));
    await expect(row("Net credited")).toHaveText(fiat(btcGross - feeOf(btcGross), "EUR"));
    // Everything paid goes back in the coin it came in: all of the BTC, nothing in LTC.
    const owedBtc = page.getByRole("region", { name: "Refund owed in BTC" });
    await expect(owedBtc.getByRole("link", { name: `Refund ${crypto(btcPaid, "BTC")}` })).toBeVisible();
    await expect(page.getByRole("region", { name: /LTC/ })).toHaveCount(0);
    await expectAccessible(page);
    await shoot(page, testInfo, `two-coins-failed-short-${width}`);
  });
}
