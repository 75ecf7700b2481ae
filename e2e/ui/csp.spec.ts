import { type Page, request as playwrightRequest } from "@playwright/test";
import { DASHBOARD_PAGES } from "../../components/dashboard/pages";
import { shortTimer } from "../../playwright.config";
import {
  createMerchant,
  expect,
  OWN_CHAIN,
  type SignedClient,
  sandboxCredit,
  signedClient,
  test,
} from "../fixtures";
import { expectClientNavigation, expectHydrated, watchCsp } from "./csp-guard";
import { signIn } from "./sign-in";

/**
 * Every page under the production Content-Security-Policy (proxy.ts): nonce-only scripts, no
 * 'unsafe-eval', no inline styles without the nonce. Each page is loaded fresh (its own nonce), must
 * report no violation, and must hydrate: its scripts ran, so React took the page over.
 */

let counter = 0;
async function createInvoice(client: SignedClient, baseURL: string, overrides: Record<string, unknown> = {}) {
  counter++;
  const response = await client.post("/invoices/create", {
    end_user_reference: `csp-shopper-${counter}`,
    email_user: "buyer@example.com",
    sender_type: "natural",
    sender_data: { first_name: "Ada", last_name: "Lovelace", date_of_birth: "1990-12-10" },
    timer: true,
    title: "Policy check",
    foreign_id: `csp-${Date.now()}-${counter}`,
    currency: "EUR",
    amount: "25",
    url_success: `${baseURL}/?paid=${counter}`,
    url_failed: `${baseURL}/?failed=${counter}`,
    ...overrides,
  });
  expect(response.status()).toBe(201);
  const data = (await response.json()).data;
  return { ...data, path: new URL(data.url).pathname as string };
}

/** Loads `path` as a new document and checks it answered without a server error. */
async function open(page: Page, path: string) {
  const response = await page.goto(path);
  expect(response?.status(), path).toBeLessThan(500);
  const policy = response?.headers()["content-security-policy"] ?? "";
  expect(policy, path).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'(;|$)/);
}

test("public pages: landing, API reference, sign-in, sign-up, reset and a missing page", async ({ page }) => {
  const csp = await watchCsp(page);
  await open(page, "/");
  await expectClientNavigation(
    page,
    page.getByRole("link", { name: "Read the API reference" }),
    /\/docs\/api$/,
  );
  await expect(page.getByRole("heading", { name: "Signing requests" })).toBeVisible();

  await open(page, "/docs/api");
  await expectClientNavigation(page, page.getByRole("link", { name: "Kassa", exact: true }), /\/$/);

  for (const path of ["/login", "/signup", "/forgot-password", "/reset-password", "/signup/finish"]) {
    await open(page, path);
    await expectClientNavigation(page, page.getByRole("link", { name: "Kassa", exact: true }), /\/$/);
  }

  const missing = await page.goto("/no-such-page");
  expect(missing?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  await expectClientNavigation(page, page.getByRole("link", { name: "Go to the start page" }), /\/$/);
  csp.expectNone();
});

test("every dashboard page, an invoice and a transaction, and the authenticator's QR code", async ({
  page,
  client,
  merchant,
}) => {
  // Every dashboard page in turn, with the second factor set up at the end: over a minute on a busy machine.
  test.slow();
  const invoice = await createInvoice(client, "http://shop.example");
  // Money that moved, so the overview draws its 14-day chart (bars were once style attributes).
  await sandboxCredit(merchant.merchantId, "BTC", "0.5");
  const csp = await watchCsp(page);
  // The sign-in form's own script signs in (next-auth's client) and moves on to the dashboard.
  await signIn(page, merchant);
  // The overview's chart is drawn under the policy: today's bar has its height (half the plot: the largest day).
  await page.goto("/dashboard");
  await expect(page.getByRole("img", { name: /Bar chart of money in and out/ })).toBeVisible();
  const heights = () =>
    page
      .locator("rect.fill-emerald-600")
      .evaluateAll((bars) => bars.map((bar) => bar.getBoundingClientRect().height));
  await expect.poll(async () => Math.max(...(await heights()))).toBeGreaterThan(40);
  const nav = page.getByRole("navigation");
  for (const { href } of DASHBOARD_PAGES) {
    await open(page, href);
    // From each page to another by its navigation, on the client.
    const other = (href === "/dashboard" ? DASHBOARD_PAGES[1] : DASHBOARD_PAGES[0])!;
    await expectClientNavigation(
      page,
      nav.getByRole("link", { name: other.label, exact: true }),
      new RegExp(`${other.href}$`),
    );
  }
  for (const href of [`/dashboard/invoices/${invoice.id}`, `/dashboard/transactions/${invoice.id}`]) {
    await open(page, href);
    await expectClientNavigation(
      page,
      nav.getByRole("link", { name: "Overview", exact: true }),
      /\/dashboard$/,
    );
  }

  // The authenticator's QR code is a data: image drawn from the server's SVG.
  await open(page, "/dashboard/settings");
  await page.getByRole("button", { name: "Set up two-factor sign-in" }).click();
  const qr = page.getByRole("img", { name: "QR code for your authenticator app" });
  await expect(qr).toBeVisible();
  expect(await qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  csp.expectNone();
});

test("the checkout in each state: choosing, paying, received, paid, cancelled, expired, not found", async ({
  page,
  client,
}) => {
  const csp = await watchCsp(page);
  const invoice = await createInvoice(client, "http://shop.example");
  // Paid on a chain no other test mines: on BTC, another test's blocks could confirm the payment
  // before the page shows it received (e2e/fixtures.ts, OWN_CHAIN).
  const coin = OWN_CHAIN.cspWalk;
  const button = page.getByRole("button", { name: new RegExp(`^${coin}`) });
  await open(page, invoice.path);
  await expectHydrated(button);
  await page.evaluate(() => {
    (window as unknown as { __kassaMarker: string }).__kassaMarker = "same document";
  });
  await button.click();
  await expect(page.getByText("Amount to send")).toBeVisible();
  // Chosen by the page's script (the form without JavaScript would have loaded a new document).
  expect(await page.evaluate(() => (window as unknown as { __kassaMarker?: string }).__kassaMarker)).toBe(
    "same document",
  );
  const qr = page.getByRole("img", { name: /QR code for paying/ });
  await expect(qr).toBeVisible();
  await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);

  await open(page, invoice.path);
  await expectHydrated(page.getByText("Amount to send"));
  const amount = (await page.getByRole("status").filter({ hasText: /^\d/ }).first().textContent())!.trim();
  const address = (await page.locator("output").nth(1).textContent())!.trim();
  const paid = await client.post("/sandbox/payments", {
    address,
    currency: coin,
    amount: amount.split(" ")[0],
  });
  expect(paid.status()).toBe(201);
  // The open page learns of the payment over its EventSource (connect-src 'self').
  await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible();

  await open(page, invoice.path);
  await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible();
  await expectHydrated(page.getByRole("heading", { name: "Payment received" }));
  await client.post("/sandbox/blocks", { currency: coin, count: 12 }); // Ether's confirmations
  await expect(page.getByRole("heading", { name: "Invoice paid" })).toBeVisible({ timeout: 15_000 });
  await open(page, invoice.path);
  await expectHydrated(page.getByRole("heading", { name: "Invoice paid" }));

  const cancelled = await createInvoice(client, "http://shop.example");
  expect((await client.post(`/invoices/${cancelled.foreign_id}/cancel`)).status()).toBeLessThan(300);
  await open(page, cancelled.path);
  await expectHydrated(page.getByRole("heading", { name: "This invoice was cancelled" }));

  await open(page, "/pay/AAAAAAAAAAAAAAAAAAAAAAAA");
  await expectHydrated(page.getByRole("heading", { name: "We can't find this payment link" }));

  const api = await playwrightRequest.newContext({ baseURL: shortTimer.baseURL });
  const shortClient = signedClient(api, await createMerchant("CSP Short Timer", shortTimer.dataDir));
  const expiring = await createInvoice(shortClient, shortTimer.baseURL, { sender_currency: "BTC" });
  await open(page, `${shortTimer.baseURL}${expiring.path}`);
  await expect(page.getByRole("heading", { name: "This invoice has expired" })).toBeVisible({
    timeout: 20_000,
  });
  await open(page, `${shortTimer.baseURL}${expiring.path}`);
  await expectHydrated(page.getByRole("heading", { name: "This invoice has expired" }));
  await api.dispose();
  csp.expectNone();
});

test("each page load gets its own nonce, and Next's scripts carry it", async ({ request }) => {
  const nonces: string[] = [];
  for (let i = 0; i < 3; i++) {
    const response = await request.get("/login");
    const policy = response.headers()["content-security-policy"]!;
    const nonce = /'nonce-([^']+)'/.exec(policy)![1]!;
    // Production: nothing evaluates strings, and no inline script runs without the nonce.
    expect(policy).not.toContain("unsafe-eval");
    expect(policy).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    const html = await response.text();
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
    nonces.push(nonce);
  }
  expect(new Set(nonces).size).toBe(3);
});
