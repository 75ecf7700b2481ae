import { createMerchant, expect, sandboxCredit, test } from "../fixtures";
import { signIn } from "./sign-in";
import { checkBothWidths, PHONE } from "./widths";

test(`the payout form flags an overdraft and a missing XRP tag before Confirm, and Max fits the fees, each page at 375 and 1280 px`, async ({
  page,
}, testInfo) => {
  const merchant = await createMerchant("Guard Shop");
  await sandboxCredit(merchant.merchantId, "BTC", "1");
  await page.setViewportSize(PHONE);
  await signIn(page, merchant);
  await page.goto("/dashboard/payouts/new");

  // The merchant's side is theirs, prefilled from the account.
  await expect(page.getByRole("group", { name: "You (sender)" })).toBeVisible();
  await expect(page.getByLabel("Legal name").first()).toHaveValue("Guard Shop");

  // Over the balance: said in the live quote, with the figures (BTC's network fee is 0.00002).
  await expect(page.getByText("Available: 1 BTC")).toBeVisible();
  await page.getByLabel(/^Amount \(/).fill("2");
  await expect(
    page.getByText("Not enough funds: this debits 2.00002 BTC, your available balance is 1 BTC."),
  ).toBeVisible();

  // Max: the balance less the network fee, and the quote then debits exactly the balance.
  await page.getByRole("button", { name: "Max" }).click();
  await expect(page.getByLabel(/^Amount \(/)).toHaveValue("0.99998");
  await expect(page.getByText("Sends 0.99998 BTC; debits 1 BTC including fees.")).toBeVisible();
  await expect(page.getByText(/^Not enough funds/)).toHaveCount(0);

  await page.getByLabel(/Destination .* address/).fill("tb1qfdxh6gkfr0qgyatnlkd8khcnxph9tw06n6qwjc");
  await page.getByLabel("Customer reference (end_user_reference)").fill("payee-1");
  await page.getByLabel("Country of registration").first().fill("DEU");
  await page.getByLabel("First name").fill("Alan");
  await page.getByLabel("Last name").fill("Turing");
  await page.getByLabel("Date of birth").fill("1912-06-23");
  await page.getByRole("button", { name: "Review payout" }).click();
  const review = page.getByRole("region", { name: "Confirm the payout" });
  await expect(review).toContainText("tb1qfdxh6gkfr0qgyatnlkd8khcnxph9tw06n6qwjc");
  await expect(review).toContainText("Alan Turing");
  await expect(review.getByRole("button", { name: "Confirm payout" })).toBeEnabled();
  await checkBothWidths(page, testInfo, "payout-review");

  // Changed to more than the balance: the review says so and cannot be confirmed.
  await page.getByLabel(/^Amount \(/).fill("1.5");
  await page.getByRole("button", { name: "Review payout" }).click();
  await expect(review.getByText(/^Not enough funds: this debits 1.50002 BTC/)).toBeVisible();
  await expect(review.getByRole("button", { name: "Confirm payout" })).toBeDisabled();
  await checkBothWidths(page, testInfo, "payout-overdraft");

  // XRP without its destination tag: flagged under the amount, and Review stops on the tag field.
  await page.getByLabel("Pay from balance").selectOption("XRP");
  await expect(
    page.getByText("XRP needs a destination tag: enter it below, or the payout is refused."),
  ).toBeVisible();
  await page.getByRole("button", { name: "Review payout" }).click();
  await expect(page.getByLabel("destination tag")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("Enter the destination tag for XRP.")).toBeVisible();
  await expect(page.getByRole("region", { name: "Confirm the payout" })).toHaveCount(0);
  await checkBothWidths(page, testInfo, "payout-xrp-tag");
});
