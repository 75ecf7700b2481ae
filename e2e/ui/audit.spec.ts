import type { APIRequestContext } from "@playwright/test";
import { cli, createMerchant, expect, sandboxCredit, signedClient, test } from "../fixtures";
import { signIn } from "./sign-in";
import { confirmStepUp } from "./step-up";
import { checkBothWidths, PHONE } from "./widths";

const BTC = "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu";

/** A merchant whose limits the operator set and who made one payout through the API: two trail entries. */
async function merchantWithPayout(request: APIRequestContext, name: string) {
  const merchant = await createMerchant(`Audit ${name}`);
  const id = String(merchant.merchantId);
  await sandboxCredit(id, "BTC", "1");
  await cli("merchants", "limits", "--merchant", id, "--currency", "BTC", "--per-withdrawal", "0.5");
  const api = signedClient(request, merchant);
  const payout = await api.post("/withdrawal/crypto", {
    currency: "BTC",
    amount: "0.02",
    address: BTC,
    foreign_id: `audit-ui-${name}-${Date.now()}`,
    end_user_reference: "payee-1",
    sender_type: "legal",
    sender_data: { legal_name: "Shop GmbH", country_of_registration: "DEU" },
    receiver_type: "self",
  });
  expect(payout.status()).toBe(201);
  const withdrawalId = (await payout.json()).data.id;
  return { merchant, withdrawalId: withdrawalId as number };
}

test.describe("audit trail page", () => {
  test("shows who did what from where, accessibly, at 375 and 1280 px", async ({
    page,
    request,
  }, testInfo) => {
    const { merchant, withdrawalId } = await merchantWithPayout(request, "trail");
    await page.setViewportSize(PHONE);
    await signIn(page, merchant);
    // An allowlist set on the API keys page lands in the trail too.
    await page.goto("/dashboard/keys");
    const allowlist = page.getByRole("form", { name: /^Allowed addresses of / }).first();
    await allowlist.getByLabel("Allowed IP addresses").fill("127.0.0.1\n2001:db8::/32");
    await allowlist.getByRole("button", { name: "Save allowed addresses" }).click();
    await confirmStepUp(page, merchant.password);
    await expect(page.getByText("Saved. It applies from the next request.")).toBeVisible();
    await expect(page.getByText("only from 127.0.0.1/32, 2001:db8::/32")).toBeVisible();

    await page.goto("/dashboard/audit");
    await expect(page.getByRole("heading", { level: 1, name: "Audit trail" })).toBeVisible();
    const rows = page.getByRole("row");
    await expect(rows.filter({ hasText: "Signed in" })).toContainText(merchant.email);
    await expect(rows.filter({ hasText: "Signed in" })).toContainText("127.0.0.1");
    await expect(rows.filter({ hasText: "Withdrawal limit changed" })).toContainText("operator CLI");
    const created = rows.filter({ hasText: "Payout created" });
    await expect(created).toContainText(`API key ${merchant.apiKey}`);
    await expect(created).toContainText(`withdrawal ${withdrawalId}: 0.02 BTC to ${BTC}`);
    await expect(rows.filter({ hasText: "API key IP allowlist changed" })).toContainText(
      `${merchant.apiKey}: 127.0.0.1/32 2001:db8::/32`,
    );
    await checkBothWidths(page, testInfo, "audit");
  });

  test("filters by action, exports the filter as CSV, and says what is wrong with a bad date", async ({
    page,
    request,
  }) => {
    const { merchant, withdrawalId } = await merchantWithPayout(request, "filter");
    await signIn(page, merchant);
    await page.goto("/dashboard/audit");
    await page.getByLabel("Action").selectOption({ label: "Payout created" });
    await page.getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(/action=payout_created/);
    await expect(page.getByRole("row")).toHaveCount(2); // the header and the one payout
    await expect(page.getByRole("row").nth(1)).toContainText("Payout created");

    const link = page.getByRole("link", { name: "Export CSV of this filter" });
    const csv = await page.request.get((await link.getAttribute("href"))!);
    const lines = (await csv.text()).trim().split("\r\n");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`"payout_created","withdrawal ${withdrawalId}: 0.02 BTC to ${BTC}"`);

    await page.goto("/dashboard/audit?from=yesterday");
    await expect(page.getByRole("alert").filter({ hasText: "Enter a date" })).toHaveText(
      "Enter a date such as 2026-11-24.",
    );
  });
});
