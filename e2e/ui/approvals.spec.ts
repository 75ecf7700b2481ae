import { cli, createMerchant, expect, projectBaseURL, sandboxCredit, signedClient, test } from "../fixtures";
import { signIn } from "./sign-in";
import { confirmStepUp } from "./step-up";
import { checkBothWidths, PHONE } from "./widths";

const BTC = "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu";

let counter = 0;
const payout = (amount: string) => {
  counter++;
  return {
    currency: "BTC",
    amount,
    address: BTC,
    foreign_id: `approval-ui-${Date.now()}-${counter}`,
    end_user_reference: `payee-${counter}`,
    sender_type: "legal",
    sender_data: { legal_name: "Shop GmbH", country_of_registration: "DEU" },
    receiver_type: "legal",
    receiver_data: { legal_name: "Receiver Ltd", country_of_registration: "GBR" },
  };
};

/** What `btc` is worth in USD at the sandbox's default price (65 000 USD per BTC), to the cent, grouped. */
const usdOf = (btc: bigint) => {
  const cents = (btc * 65_000n) / 1_000_000n; // 10^-8 BTC × 65 000 USD, in cents
  const whole = String(cents / 100n).replace(/\B(?=(\d{3})+$)/g, "\u202f");
  return `${whole}.${String(cents % 100n).padStart(2, "0")} USD`;
};

test.describe("approval screen", () => {
  test("approves an API payout over the limit and sets limits with the password, each page at 375 and 1280 px", async ({
    page,
    request,
  }, testInfo) => {
    const merchant = await createMerchant("Approvals");
    const id = String(merchant.merchantId);
    await sandboxCredit(id, "BTC", "1");
    await cli("merchants", "limits", "--merchant", id, "--currency", "BTC", "--per-withdrawal", "0.01");
    const api = signedClient(request, merchant);
    const held = (await (await api.post("/withdrawal/crypto", payout("0.02"))).json()).data;
    expect(held.status).toBe("pending");

    await page.setViewportSize(PHONE);
    await signIn(page, merchant);
    await page.goto("/dashboard/approvals");
    await expect(page.getByRole("heading", { level: 1, name: "Approvals" })).toBeVisible();
    const item = page.getByRole("listitem").filter({ hasText: `Withdrawal ${held.id}` });
    await expect(item).toContainText("0.02 BTC");
    await expect(item).toContainText("Asked for through the API");
    await expect(item).toContainText(BTC);
    // What it is worth in the dashboard's currency, who receives it, and whose reference it carries.
    await expect(item).toContainText(`Worth about ${usdOf(2_000_000n)} at today's rate`);
    await expect(item).toContainText("To Receiver Ltd (customer reference payee-");
    await page.waitForLoadState("networkidle");
    await checkBothWidths(page, testInfo, "approvals");

    // Approving asks for the password (no two-factor app on this user) in the dashboard's one dialog.
    await item.getByRole("button", { name: "Approve" }).click();
    await item.getByRole("button", { name: "Approve withdrawal" }).click();
    await confirmStepUp(page, merchant.password);
    await expect(page.getByText(`Withdrawal ${held.id} approved: it is being sent.`)).toBeVisible();
    await expect(page.getByText("Nothing waits for approval.")).toBeVisible();
    const info = await api.send("GET", "/transactions/info", JSON.stringify({ id: held.id }));
    // Sent: on its way, or already confirmed if another test's BTC blocks (any test may mine them on
    // this server at any moment) took it meanwhile; never still pending, nor declined.
    expect((await info.json()).status).toMatch(/^(not_confirmed|confirmed)$/);

    // Limits: set through the form; the confirmation above still stands (its 5-minute window).
    const limits = page.getByRole("form", { name: "Set withdrawal limits" });
    await limits.getByLabel("Currency").selectOption("BTC");
    await limits.getByLabel("Largest payout without approval").fill("0.03");
    await limits.getByLabel("Daily total without approval (optional)").fill("0.1");
    await limits.getByRole("button", { name: "Save limits" }).click();
    await expect(
      page.getByText("Saved: BTC payouts over 0.03 BTC or 0.1 BTC a day now wait for approval."),
    ).toBeVisible();
    const row = page.getByRole("row", { name: /BTC/ });
    await expect(row).toContainText("0.03 BTC");
    await expect(row).toContainText("0.1 BTC");
    await checkBothWidths(page, testInfo, "limits");

    // A payout this user asks for in the dashboard form waits for someone else: no buttons for its creator.
    await page.goto("/dashboard/payouts/new");
    await page.getByLabel("Pay from balance").selectOption("BTC");
    await page.getByLabel(/^Amount \(/).fill("0.05");
    await page.getByLabel(/Destination .* address/).fill(BTC);
    await page.getByLabel("Customer reference (end_user_reference)").fill("payee-own");
    await page.getByLabel("Legal name").first().fill("Payout Shop GmbH");
    await page.getByLabel("Country of registration").first().fill("DEU");
    await page.getByLabel("Receiver type").selectOption("self");
    await page.getByRole("button", { name: "Review payout" }).click();
    // Before Confirm, the review says which limit this payout is over and that it will wait.
    const review = page.getByRole("region", { name: "Confirm the payout" });
    await expect(review).toContainText(
      "Over your BTC limit of 0.03 BTC per withdrawal or exchange: this payout moves 0.05 BTC. It will wait for approval",
    );
    await expect(review.getByText(usdOf(5_000_000n))).toBeVisible();
    await checkBothWidths(page, testInfo, "payout-over-limit");
    await review.getByRole("button", { name: "Confirm payout" }).click();
    const heldHeading = page.getByRole("heading", { name: /Payout \d+ waits for approval/ });
    await expect(heldHeading).toBeVisible();
    await expect(
      page.getByText("another user of your account must approve it on the Approvals page"),
    ).toBeVisible();
    const ownId = Number(/Payout (\d+)/.exec((await heldHeading.textContent())!)![1]);
    await page.goto("/dashboard/approvals");
    const ownItem = page.getByRole("listitem").filter({ hasText: `Withdrawal ${ownId}` });
    await expect(ownItem).toContainText(`Asked for by ${merchant.email}`);
    await expect(ownItem).toContainText("another user of your account must approve or decline it");
    await expect(ownItem.getByRole("button", { name: "Approve" })).toHaveCount(0);
    const forced = await page.request.post(`/api/dashboard/withdrawals/${ownId}/approve`, {
      data: { password: merchant.password },
      headers: { origin: projectBaseURL() },
    });
    expect(forced.status()).toBe(403);
    await checkBothWidths(page, testInfo, "approvals-own");
  });
});
