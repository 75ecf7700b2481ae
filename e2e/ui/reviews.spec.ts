import { startReceiver } from "../../tests/support/receiver";
import { cli, createMerchant, expect, signedClient, test } from "../fixtures";
import { capture, expectAccessible } from "./page-checks";
import { signIn } from "./sign-in";
import { confirmStepUp, stepUpDialog } from "./step-up";
import { checkBothWidths, PHONE } from "./widths";

/** On e2e/screening-denylist.txt, which the test servers load (playwright.config.ts). */
const DENIED = "LTCe2eDenied11111111111111111111111";
const SHOTS = "/tmp/shots-screen";

type Callback = {
  event: string;
  body: { id: number; status: string; transactions: { riskscore?: string }[] };
};

test.describe("compliance review screen", () => {
  test("holds denylisted payments, releases one and rejects one with the password, at 375 and 1280 px", async ({
    page,
    request,
  }, testInfo) => {
    const merchant = await createMerchant("Reviews");
    const api = signedClient(request, merchant);
    const receiver = await startReceiver();
    try {
      await cli(
        "merchants",
        "set-callback",
        "--merchant",
        String(merchant.merchantId),
        "--url",
        receiver.url(),
      );
      const callbacks = () =>
        receiver.received.map(
          (r) => ({ event: r.headers["x-kassa-event"], body: JSON.parse(r.body.toString()) }) as Callback,
        );
      const take = await api.post("/addresses/take", {
        foreign_id: "review",
        currency: "LTC",
      });
      const address = (await take.json()).data.address as string;
      for (const amount of ["0.5", "0.25"]) {
        const paid = await api.post("/sandbox/payments", {
          address,
          currency: "LTC",
          amount,
          sender_address: DENIED,
        });
        expect(paid.status()).toBe(201);
      }
      expect((await api.post("/sandbox/blocks", { currency: "LTC", count: 6 })).status()).toBe(201);
      // Held, not credited: each deposit is called back as verifying (not_confirmed on the wire).
      await expect
        .poll(() => callbacks().filter((c) => c.event === "deposit.verifying").length, { timeout: 20_000 })
        .toBe(2);
      const verifying = callbacks().filter((c) => c.event === "deposit.verifying");
      for (const held of verifying) {
        expect(held.body.status).toBe("not_confirmed");
        expect(held.body.transactions[0]!.riskscore).toBe("100");
      }
      const [first, second] = verifying.map((c) => c.body.id).sort((a, b) => a - b);

      await page.setViewportSize(PHONE);
      await signIn(page, merchant);
      await page.goto("/dashboard/reviews");
      await expect(page.getByRole("heading", { level: 1, name: "Reviews" })).toBeVisible();
      const releaseItem = page.getByRole("listitem").filter({ hasText: `Deposit ${first}` });
      const rejectItem = page.getByRole("listitem").filter({ hasText: `Deposit ${second}` });
      await expect(releaseItem).toContainText("0.5 LTC");
      await expect(releaseItem).toContainText("Risk score 100");
      await expect(releaseItem).toContainText(`Sender ${DENIED} is on the denylist.`);
      await expect(rejectItem).toContainText("0.25 LTC");
      await page.waitForLoadState("networkidle");
      await checkBothWidths(page, testInfo, "reviews-queue");

      // Releasing asks for the password (no authenticator on this user) in the one dialog; a wrong one is refused there.
      await releaseItem.getByRole("button", { name: "Release" }).click();
      await releaseItem.getByRole("button", { name: "Release payment" }).click();
      const dialog = stepUpDialog(page);
      await dialog.getByLabel("Your password").fill("not the password");
      await dialog.getByRole("button", { name: "Confirm" }).click();
      await expect(dialog.getByText("The password is not right.")).toBeVisible();
      await confirmStepUp(page, merchant.password);
      await expect(page.getByText("Payment of 0.5 LTC released: it is credited.")).toBeVisible();
      await expect
        .poll(() => callbacks().find((c) => c.event === "deposit.confirmed")?.body.id, { timeout: 15_000 })
        .toBe(first);

      // The confirmation still stands (its 5-minute window): rejecting asks nothing more.
      await rejectItem.getByRole("button", { name: "Reject" }).click();
      await rejectItem.getByRole("button", { name: "Reject payment" }).click();
      await expect(
        page.getByText("Payment of 0.25 LTC rejected: it is kept for the operator to send back."),
      ).toBeVisible();
      await expect(page.getByText("No payment waits for review.")).toBeVisible();
      await expect
        .poll(() => callbacks().find((c) => c.event === "deposit.rejected")?.body, { timeout: 15_000 })
        .toMatchObject({ id: second, status: "cancelled" });

      const decided = page.getByRole("table");
      await expect(decided.getByRole("row", { name: /^0\.5 LTC/ })).toContainText("Released");
      await expect(decided.getByRole("row", { name: /^0\.25 LTC/ })).toContainText("Rejected");
      await expect(decided).toContainText(merchant.email);
      await checkBothWidths(page, testInfo, "reviews-decided");

      // Only the released payment reached the balance: 0.5 LTC less the 0.5% deposit fee.
      const balances = (await (await api.post("/accounts/list", {})).json()).data as {
        currency: string;
        balance: string;
      }[];
      expect(balances.find((b) => b.currency === "LTC")?.balance).toBe("0.49750000");
      const info = await api.send("GET", "/transactions/info", JSON.stringify({ id: second }));
      expect((await info.json()).status).toBe("cancelled");
    } finally {
      await receiver.close();
    }
  });

  test("sets the review threshold from the CLI and in Settings with the password", async ({ page }) => {
    const merchant = await createMerchant("Review threshold");
    expect(
      await cli(
        "merchants",
        "review-threshold",
        "--merchant",
        String(merchant.merchantId),
        "--score",
        "75.50",
      ),
    ).toEqual({ merchant_id: merchant.merchantId, review_threshold: "75.5" });

    await page.setViewportSize({ width: 1280, height: 900 });
    await signIn(page, merchant);
    await page.goto("/dashboard/settings");
    const form = page.getByRole("form", { name: "Compliance review threshold" });
    const field = form.getByLabel("Review payments scoring at least");
    await expect(field).toHaveValue("75.5");
    await field.fill("101");
    await form.getByRole("button", { name: "Save threshold" }).click();
    await confirmStepUp(page, merchant.password);
    await expect(form.getByText("Type a score from 0 to 100, with at most two decimals.")).toBeVisible();
    await field.fill("60");
    await form.getByRole("button", { name: "Save threshold" }).click();
    await expect(
      form.getByText("Threshold saved: payments scoring 60 or more wait for review."),
    ).toBeVisible();
    await page.waitForLoadState("networkidle");
    await expectAccessible(page);
    await capture(page, { path: `${SHOTS}/settings-threshold-desktop.png`, fullPage: true });
    await page.goto("/dashboard/reviews");
    await expect(page.getByText("One with a risk score of 60 or more")).toBeVisible();
  });
});
