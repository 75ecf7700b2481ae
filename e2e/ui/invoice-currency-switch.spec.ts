import type { Page } from "@playwright/test";
import { costIn, decimal, feeOf, INVOICED, switchedAndPaidInBtc, worthOf } from "../currency-switch";
import { createMerchant, expect, signedClient, test } from "../fixtures";
import { signIn } from "./sign-in";
import { checkBothWidths, PHONE } from "./widths";

/**
 * The dashboard's invoice page for an invoice paid in two coins after the customer switched from BTC
 * to LTC (docs/api-decisions.md, "Pay with another currency"): a third of the BTC price to the BTC address, then the
 * rest to the LTC address. Expected figures come from e2e/currency-switch.ts, computed from the
 * sandbox prices, never read back from the page or the API.
 */

/** As the dashboard shows crypto: every significant digit, no trailing zeros. */
const crypto = (value: bigint, code: string) => `${decimal(value).replace(/\.?0+$/, "")} ${code}`;
/** As the dashboard shows a fiat amount: to the nearest cent (these amounts are under a thousand). */
const fiat = (value: bigint, code: string) => {
  const cents = (value + 500_000n) / 1_000_000n;
  return `${cents / 100n}.${String(cents % 100n).padStart(2, "0")} ${code}`;
};
/** The invoice page's net credited: the cents, then every digit when the cents round them. */
const credited = (value: bigint, code: string) => {
  const [whole, fraction] = decimal(value).split(".");
  const exact = `${whole}.${fraction!.replace(/0+$/, "").padEnd(2, "0")} ${code}`;
  return exact === fiat(value, code) ? exact : `${fiat(value, code)} (exactly ${exact})`;
};

/** The value beside a label in the invoice page's Amounts list. */
const amountRow = (page: Page, label: string) =>
  page
    .getByRole("region", { name: "Amounts" })
    .locator("dt")
    .filter({ hasText: new RegExp(`^${label}$`) })
    .locator("xpath=following-sibling::dd[1]");

test(`an invoice paid in two coins after a switch shows each coin's worth, the shortfall in EUR and net credited, each page at 375 and 1280 px`, async ({
  page,
  request,
}, testInfo) => {
  const merchant = await createMerchant("Two Coins Shop");
  const client = signedClient(request, merchant);
  const { id, info, ltc, btcPaid, btcGross } = await switchedAndPaidInBtc(client, request, {
    title: "Two coins",
    foreignId: `two-coins-page`,
  });
  const shortInEur = INVOICED - btcGross;
  const ltcDue = costIn(shortInEur, "EUR", "LTC");

  // Everything so far went to the BTC address: the page still says how short the invoice is.
  await page.setViewportSize(PHONE);
  await signIn(page, merchant);
  await page.goto(`/dashboard/invoices/${id}`);
  await expect(page.getByRole("heading", { name: "Two coins", level: 1 })).toBeVisible();
  const row = (label: string) => amountRow(page, label);
  await expect(row("Invoiced")).toHaveText("100.00 EUR");
  await expect(row("Received in BTC")).toHaveText(`${crypto(btcPaid, "BTC")} = ${fiat(btcGross, "EUR")}`);
  await expect(row("Received in LTC")).toHaveText("0 LTC");
  await expect(row("Shortfall")).toHaveText(
    `${fiat(shortInEur, "EUR")} (${crypto(ltcDue, "LTC")} at today's rate)`,
  );
  await expect(row("Net credited")).toHaveText(credited(btcGross - feeOf(btcGross), "EUR"));
  await checkBothWidths(page, testInfo, "two-coins-short");

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
  await expect(row("Deposit fee")).toHaveText(fiat(fee, "EUR"));
  await expect(row("Net credited")).toHaveText(credited(btcGross + ltcGross - fee, "EUR"));
  await expect(page.getByRole("region", { name: /^Refund/ })).toHaveCount(0);
  await checkBothWidths(page, testInfo, "two-coins-confirmed");
});

test(`an invoice that failed short after a switch owes back, in the old coin, what was paid to it, each page at 375 and 1280 px`, async ({
  page,
  request,
}, testInfo) => {
  const merchant = await createMerchant("Short Two Coins Shop");
  const client = signedClient(request, merchant);
  const { id, info, btcPaid, btcGross } = await switchedAndPaidInBtc(client, request, {
    title: "Two coins, short",
    foreignId: `two-coins-short`,
  });

  await page.setViewportSize(PHONE);
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
  const row = (label: string) => amountRow(page, label);
  await expect(row("Received in BTC")).toHaveText(`${crypto(btcPaid, "BTC")} = ${fiat(btcGross, "EUR")}`);
  await expect(row("Received in LTC")).toHaveText("0 LTC");
  // Closed: how short it fell, in EUR, without a coin amount no one can pay any more.
  await expect(row("Shortfall")).toHaveText(fiat(INVOICED - btcGross, "EUR"));
  await expect(row("Net credited")).toHaveText(credited(btcGross - feeOf(btcGross), "EUR"));
  // Everything paid goes back in the coin it came in: all of the BTC, nothing in LTC.
  const owedBtc = page.getByRole("region", { name: "Refund owed in BTC" });
  await expect(owedBtc.getByRole("link", { name: `Refund ${crypto(btcPaid, "BTC")}` })).toBeVisible();
  await expect(page.getByRole("region", { name: /LTC/ })).toHaveCount(0);
  await checkBothWidths(page, testInfo, "two-coins-failed-short");
});
