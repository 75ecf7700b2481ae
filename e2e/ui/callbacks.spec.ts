import type { Page, TestInfo } from "@playwright/test";
import { startReceiver } from "../../tests/support/receiver";
import { cli, createMerchant, expect, setCallbackUrl, sign, signedClient, test, UNMINED } from "../fixtures";
import { capture, expectAccessible } from "./page-checks";
import { signIn } from "./sign-in";
import { confirmStepUp } from "./step-up";

async function attach(page: Page, testInfo: TestInfo, name: string) {
  await testInfo.attach(name, { body: await capture(page, { fullPage: true }), contentType: "image/png" });
}

/**
 * Saves the callback URL through the form, as a merchant would: the first change of the session
 * is confirmed with the password (`password`), a later one within the window asks nothing.
 */
async function saveUrl(page: Page, url: string, password?: string) {
  await page.getByLabel("Callback URL").fill(url);
  await page.getByRole("button", { name: "Save", exact: true }).click();
  if (password) await confirmStepUp(page, password);
  await expect(page.getByText("Saved. Pending callbacks go to this URL from their next try.")).toBeVisible();
}

test("a merchant recovers callbacks after a broken URL: test, fix, retry everything, read each attempt", async ({
  page,
  request,
}, testInfo) => {
  // Two real receivers: the endpoint that fails, and the fixed one.
  const broken = await startReceiver({ status: 500, body: "boom" });
  const fixed = await startReceiver({ status: 200, body: "ok" });
  try {
    const merchant = await createMerchant("Hook Shop");
    const client = signedClient(request, merchant);
    await page.setViewportSize({ width: 1280, height: 900 });
    await signIn(page, merchant);
    await page.goto("/dashboard/callbacks");
    await expect(page.getByRole("heading", { name: "Callbacks", level: 1 })).toBeVisible();

    // Without a URL, the test callback says what to do.
    await page.getByRole("button", { name: "Send test callback" }).click();
    await expect(
      page.getByText("Save a callback URL first: the test callback goes to the saved URL."),
    ).toBeVisible();

    await saveUrl(page, broken.url("/kassa"), merchant.password);
    await page.getByRole("button", { name: "Send test callback" }).click();
    await expect(
      page.getByText("Test callback not delivered. Your endpoint answered HTTP 500.", { exact: false }),
    ).toBeVisible();
    expect(broken.received.at(-1)!.headers["x-kassa-event"]).toBe("test");

    // An invoice is paid while the URL is broken: pending fails, processing waits behind it. Paid in
    // a currency no test mines: on BTC, another test's blocks could confirm it meanwhile, and a third
    // callback would join the two this walk-through counts (e2e/fixtures.ts, UNMINED).
    const created = await client.post("/invoices/create", {
      end_user_reference: "hook-1",
      timer: false,
      title: "Callback walk-through",
      foreign_id: `hook-${Date.now()}`,
      currency: "BTC",
      amount: "0.001",
      url_success: "https://shop.example/ok",
      url_failed: "https://shop.example/failed",
      email_user: "buyer@example.com",
      sender_type: "natural",
      sender_data: { first_name: "Ada", last_name: "Lovelace", date_of_birth: "1990-12-10" },
    });
    expect(created.status()).toBe(201);
    const { id, url } = (await created.json()).data;
    const token = new URL(url).pathname.split("/pay/")[1];
    const view = await (
      await request.post(`/api/checkout/${token}/currency`, { data: { currency: UNMINED } })
    ).json();
    await expect
      .poll(() => broken.received.filter((r) => r.headers["x-kassa-event"] !== "test").length)
      .toBe(1);
    const paid = await client.post("/sandbox/payments", {
      address: view.address,
      currency: UNMINED,
      amount: view.sender_amount,
    });
    expect((await paid.json()).data.is_recognized).toBe(true);

    const log = page.getByRole("region", { name: "Delivery log" });
    await expect(
      log.getByText(/Waits for callback \d+ \(invoice\.pending\) of the same transaction/),
    ).toBeVisible({
      timeout: 15_000,
    });
    await expect(log.getByText(/Next try /).first()).toBeVisible();
    await expect(log.getByText("Your endpoint answered HTTP 500.", { exact: false }).first()).toBeVisible();
    await expect(page.getByText("2 callbacks are still pending.", { exact: false })).toBeVisible();
    await expectAccessible(page);
    await attach(page, testInfo, "callbacks-broken-desktop");

    // The merchant fixes the URL and sends everything pending now, by keyboard.
    await saveUrl(page, fixed.url("/kassa"));
    await page.getByRole("button", { name: "Retry everything pending now" }).focus();
    await page.keyboard.press("Enter");
    await expect(page.getByText("2 callbacks sent for delivery now.")).toBeVisible();
    await expect
      .poll(() => fixed.received.map((r) => r.headers["x-kassa-event"]), { timeout: 15_000 })
      .toEqual(["invoice.pending", "invoice.processing"]);
    for (const r of fixed.received) expect(JSON.parse(r.body.toString()).id).toBe(id);
    await expect(log.getByText("✓ Delivered")).toHaveCount(2, { timeout: 15_000 });
    await expect(page.getByText("Retry everything pending now")).toHaveCount(0);

    // Each attempt: when, where, what came back, how long; and the payload sent.
    const pendingItem = log.getByRole("listitem").filter({ hasText: "invoice.pending for" });
    await pendingItem.getByText("Attempts and payload").click();
    await expect(pendingItem.getByText(`To ${broken.url("/kassa")}`, { exact: true })).toBeVisible();
    await expect(pendingItem.getByText(`To ${fixed.url("/kassa")}`, { exact: true })).toBeVisible();
    await expect(pendingItem.getByText(/HTTP 500 · \d+ ms/)).toBeVisible();
    await expect(pendingItem.getByText(/HTTP 200 · \d+ ms/)).toBeVisible();
    await expect(pendingItem.getByText("Its answer is not shown", { exact: false }).first()).toBeVisible();
    await expect(pendingItem.locator("pre")).toContainText(`"id":${id}`);

    // Resend of a delivered callback goes out at once to the URL of now.
    await pendingItem.getByRole("button", { name: /^Resend callback/ }).click();
    await expect(page.getByText("Sending now. The log below updates as it goes.")).toBeVisible();
    await expect.poll(() => fixed.received.length, { timeout: 15_000 }).toBe(3);
    expect(fixed.received[2]!.headers["x-kassa-redelivery-of"]).toBeDefined();

    await page.getByRole("button", { name: "Send test callback" }).click();
    await expect(page.getByText(/Test callback delivered: HTTP 200 in \d+ ms\./)).toBeVisible();
    await expect(page.getByRole("heading", { name: "Verifying callbacks" })).toBeVisible();
    await expectAccessible(page);
    await attach(page, testInfo, "callbacks-recovered-desktop");

    // The two new actions are dashboard mutations: another site cannot trigger them with the cookie.
    for (const path of ["/api/dashboard/callbacks/retry-pending", "/api/dashboard/callbacks/test"]) {
      const forged = await page.request.post(path, { headers: { origin: "https://evil.example" }, data: {} });
      expect(forged.status(), path).toBe(403);
    }
    expect(fixed.received).toHaveLength(4);

    await page.setViewportSize({ width: 375, height: 800 });
    await expect(page.getByRole("button", { name: "Send test callback" })).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await expectAccessible(page);
    await attach(page, testInfo, "callbacks-recovered-phone");
  } finally {
    await broken.close();
    await fixed.close();
  }
});

test("an owner sees which key signs callbacks and chooses another; a new key changes nothing by itself", async ({
  page,
}, testInfo) => {
  const receiver = await startReceiver();
  try {
    const merchant = await createMerchant("Signing Shop");
    await setCallbackUrl(merchant, receiver.url("/kassa"));
    // A second key that may move money, created after the first: it signs nothing until chosen.
    const second = await cli(
      "api-keys",
      "create",
      "--merchant",
      String(merchant.merchantId),
      "--label",
      "Callbacks key",
    );
    await page.setViewportSize({ width: 375, height: 800 });
    await signIn(page, merchant);
    await page.goto("/dashboard/callbacks");
    const section = page.getByRole("region", { name: "Signing key" });
    await expect(section.getByText(`Callback key: Default key (${merchant.apiKey})`)).toBeVisible();
    // Nothing to save until another key is selected.
    await expect(section.getByRole("button", { name: "Use this key" })).toHaveCount(0);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await expectAccessible(page);
    await attach(page, testInfo, "callback-key-phone");

    await page.getByRole("button", { name: "Send test callback" }).click();
    await expect(page.getByText(/Test callback delivered/)).toBeVisible();
    expect(receiver.received.at(-1)!.headers["x-processing-key"]).toBe(merchant.apiKey);

    await page.setViewportSize({ width: 1280, height: 900 });
    await section.getByLabel("Sign with").selectOption({ label: `Callbacks key (${second.api_key})` });
    await attach(page, testInfo, "callback-key-choosing-desktop");
    await section.getByRole("button", { name: "Use this key" }).click();
    // The change is confirmed in the dashboard's one dialog, then sent again by the page.
    await confirmStepUp(page, merchant.password);
    await expect(
      section.getByText(`Saved. Callbacks key (${second.api_key}) signs from the next try on.`),
    ).toBeVisible();
    await expect(section.getByText(`Callback key: Callbacks key (${second.api_key})`)).toBeVisible();
    await expectAccessible(page);
    await attach(page, testInfo, "callback-key-chosen-desktop");

    await page.getByRole("button", { name: "Send test callback" }).click();
    await expect.poll(() => receiver.received.length).toBe(2);
    const [, chosen] = receiver.received;
    expect(chosen!.headers["x-processing-key"]).toBe(second.api_key);
    expect(chosen!.headers["x-processing-signature"]).toBe(sign(chosen!.body, String(second.api_secret)));
  } finally {
    await receiver.close();
  }
});
