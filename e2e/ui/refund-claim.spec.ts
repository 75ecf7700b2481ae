import { createMerchant, dashboardSession, expect, signedClient, test } from "../fixtures";
import { ltcInvoice, overpaidLtcInvoice, shown, units } from "../ltc-invoice";
import { capture, expectAccessible, expectNoSidewaysScroll } from "./page-checks";
import { signIn } from "./sign-in";
import { confirmStepUp } from "./step-up";
import { checkBothWidths, PHONE } from "./widths";

const SHOTS = "/tmp/shots-refunds";
const LTC_ADDRESS = "ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh";
const BTC_ADDRESS = "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu";
const ADA = { first_name: "Ada", last_name: "Lovelace", email: "ada@example.com" };

for (const viewport of [
  { name: "phone", width: 375, height: 800, coin: "LTC", address: LTC_ADDRESS },
  { name: "desktop", width: 1280, height: 900, coin: "BTC", address: BTC_ADDRESS },
]) {
  test(`a customer claims the refund of an overpayment in ${viewport.coin} on the hosted page, at ${viewport.width}px`, async ({
    page,
    request,
  }) => {
    const shop = `Refunds ${viewport.name}`;
    const merchant = await createMerchant(shop);
    const client = signedClient(request, merchant);
    const { foreignId, excess } = await overpaidLtcInvoice(client, request, viewport.name);

    // What the customer would get, before anything is offered: the excess, the fee on the merchant.
    const preview = await client.post(`/invoices/${foreignId}/refunds/preview`, {
      amount: "excess",
      currencies: ["BTC"],
    });
    expect(preview.status()).toBe(200);
    const previewed = (await preview.json()).data;
    expect(previewed.options.map((o: { currency: string }) => o.currency)).toEqual(["LTC", "BTC"]);
    expect(units(previewed.options[0].receives)).toBe(excess);

    // Too small for the network: said before anything is offered, with what would work instead.
    const tiny = await client.post(`/invoices/${foreignId}/refunds/preview`, {
      amount: "custom",
      custom_amount: "0.00000100",
    });
    const tinyPreview = (await tiny.json()).data;
    expect(tinyPreview.is_under_minimum).toBe(true);
    expect(units(tinyPreview.alternatives.larger_amount)).toBeGreaterThan(100n);
    const refused = await client.post(`/invoices/${foreignId}/refunds/create`, {
      amount: "custom",
      custom_amount: "0.00000100",
    });
    expect(refused.status()).toBe(400);
    expect(await refused.text()).toContain("minimum");

    const offered = await client.post(`/invoices/${foreignId}/refunds/create`, {
      amount: "excess",
      currencies: ["BTC"],
    });
    expect(offered.status()).toBe(201);
    const refund = (await offered.json()).data as { id: number; claim_url: string };

    // The customer's page: no account, what is owed and by whom, then coin, address, check, confirm.
    await page.setViewportSize(viewport);
    await page.goto(new URL(refund.claim_url).pathname);
    await expect(page.getByRole("heading", { level: 1, name: `Your refund from ${shop}` })).toBeVisible();
    await expect(page.getByText(`${shown(excess)} LTC`).first()).toBeVisible();
    await expectAccessible(page);
    await expectNoSidewaysScroll(page);

    await page.getByRole("radio", { name: new RegExp(`\\(${viewport.coin}\\)`) }).check();
    const address = page.getByLabel(`Your ${viewport.coin} address`);
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page.getByText(`Enter the ${viewport.coin} address to receive the refund.`)).toBeVisible();
    await address.fill(viewport.address);
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page.getByRole("heading", { name: "3. Check and confirm" })).toBeVisible();
    await expect(page.getByText(viewport.address).first()).toBeVisible();
    await expectAccessible(page);
    await page.getByRole("button", { name: "Confirm and send the refund" }).click();
    await expect(
      page.getByText(/is on its way|Waiting for .* to approve|Sent: |Refund sent: /).first(),
    ).toBeVisible({
      timeout: 20_000,
    });
    await expectAccessible(page);
    await expectNoSidewaysScroll(page);
    await capture(page, { path: `${SHOTS}/claimed-${viewport.name}.png`, fullPage: true });

    // The merchant's API sees it claimed, with its payout to the customer's address in the chosen coin.
    const listed = (await (await client.post(`/invoices/${foreignId}/refunds/list`)).json()).data;
    expect(listed[0]).toMatchObject({
      id: refund.id,
      status: "claimed",
      claim: { currency: viewport.coin, address: viewport.address },
      payout: { currency: viewport.coin },
    });

    // The link works once: opened again, it shows the payout, not the form.
    await page.reload();
    await expect(page.getByRole("button", { name: "Continue" })).toHaveCount(0);
    await expect(page.getByText(viewport.address).first()).toBeVisible();
  });
}

test("the merchant refunds a payment made after a cancel and the customer claims it, each page at 375 and 1280 px", async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(150_000); // two signed-in pages and the refund page, each scanned by axe, and two claims
  const shop = "Late refunds";
  const merchant = await createMerchant(shop);
  const client = signedClient(request, merchant);
  const foreignId = `late-${Date.now()}`;
  const { invoice, address, due } = await ltcInvoice(client, request, {
    foreignId,
    title: "Book shelf",
    customer: ADA,
  });
  // The shop cancels the order; the customer pays all the same.
  expect((await client.post(`/invoices/${foreignId}/cancel`, {})).status()).toBe(200);
  const paid = await client.post("/sandbox/payments", { address, currency: "LTC", amount: shown(due) });
  expect(paid.status()).toBe(201);
  await client.post("/sandbox/blocks", { currency: "LTC", count: 6 });
  // Once credited, the late payment is owed back in full.
  await expect
    .poll(
      async () => {
        const answer = await client.post(`/invoices/${foreignId}/refunds/preview`, { amount: "full" });
        return answer.status() === 200 ? units((await answer.json()).data.owed) : null;
      },
      { timeout: 20_000 },
    )
    .toBe(due);

  // The merchant's invoice page offers the refund, says why, previews it and issues it.
  await page.setViewportSize(PHONE);
  await signIn(page, merchant);
  await page.goto(`/dashboard/invoices/${invoice.id}`);
  const owed = page.getByRole("region", { name: "Refund owed" });
  await expect(owed).toContainText("A payment arrived after the invoice had closed");
  await expect(owed).toContainText(`Owed back: ${shown(due)} LTC`);
  // The timeline tells when the late payment came and when it was credited.
  const timeline = page.getByRole("region", { name: "Timeline" });
  await expect(timeline).toContainText(
    `Payment of ${shown(due)} LTC seen after the invoice closed, confirmed`,
  );
  await expect(timeline).toContainText(`Late payment of ${shown(due)} LTC credited to your balance`);
  await expect(page.getByRole("region", { name: "Close without a refund" })).toBeVisible();
  // The late credit, less its deposit fee, does not pay for sending it all back: said before issuing.
  await expect(owed.getByText(/taking about \d+\.\d{2} EUR from your balance at today's rate/)).toBeVisible();
  await expect(
    owed.getByText(/^Your EUR balance \(\d+\.\d{2} EUR available\) does not cover this refund/),
  ).toBeVisible();
  await checkBothWidths(page, testInfo, "late-refund-form");
  await owed.getByRole("button", { name: "Issue refund" }).click();
  await confirmStepUp(page, merchant.password);
  const link = page.locator("output").filter({ hasText: "/refund/" }).first();
  await expect(link).toBeVisible();
  // Resolving now would cancel the open link, and the page says so.
  await expect(page.getByRole("region", { name: "Close without a refund" })).toContainText(
    "Resolving cancels the open refund link",
  );
  const claimPath = new URL((await link.textContent())!.trim()).pathname;

  // The customer claims it in the coin they paid, to their own address.
  await page.goto(claimPath);
  await expect(page.getByRole("heading", { level: 1, name: `Your refund from ${shop}` })).toBeVisible();
  await expect(page.getByText(`${shown(due)} LTC`).first()).toBeVisible();
  await checkBothWidths(page, testInfo, "late-refund-link");
  await page.getByRole("radio", { name: /\(LTC\)/ }).check();
  await page.getByLabel("Your LTC address").fill(LTC_ADDRESS);
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByRole("heading", { name: "3. Check and confirm" })).toBeVisible();
  await page.getByRole("button", { name: "Confirm and send the refund" }).click();
  // Issued all the same, the customer is told the merchant cannot send it now, and nothing was sent.
  await expect(page.getByText(`${shop} cannot send this refund right now. Nothing was sent`)).toBeVisible();
  const session = await dashboardSession(merchant);
  expect(
    (
      await session.post("/api/dashboard/sandbox/credit", { data: { currency: "EUR", amount: "100" } })
    ).status(),
  ).toBe(201);
  await session.dispose();
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByRole("button", { name: "Confirm and send the refund" }).click();
  await expect(
    page.getByText(/is on its way|Waiting for .* to approve|Sent: |Refund sent: /).first(),
  ).toBeVisible({ timeout: 20_000 });
  await checkBothWidths(page, testInfo, "late-claimed");

  // Recorded against the invoice: the payout sends exactly what the late payment brought.
  const listed = (await (await client.post(`/invoices/${foreignId}/refunds/list`)).json()).data;
  expect(listed[0]).toMatchObject({ status: "claimed", claim: { currency: "LTC", address: LTC_ADDRESS } });
  expect(units(listed[0].payout.amount)).toBe(due);
});
