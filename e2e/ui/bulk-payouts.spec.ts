import { readFileSync } from "node:fs";
import { parse } from "csv-parse/sync";
import { createMerchant, expect, sandboxCredit, test } from "../fixtures";
import { navLink } from "./dashboard-nav";
import { signIn } from "./sign-in";
import { confirmStepUp } from "./step-up";
import { checkBothWidths, PHONE } from "./widths";

const BTC = "tb1qfdxh6gkfr0qgyatnlkd8khcnxph9tw06n6qwjc";
const HEADER =
  "reference,currency,amount,address,receiver_type,receiver_first_name,receiver_last_name,receiver_date_of_birth";

const csvFile = (lines: string[]) => ({
  name: "affiliates.csv",
  mimeType: "text/csv",
  buffer: Buffer.from(`${HEADER}\n${lines.join("\n")}\n`),
});

test(`a merchant uploads a payout file with errors, fixes it, sends it and downloads the result, each page at 375 and 1280 px`, async ({
  page,
}, testInfo) => {
  const merchant = await createMerchant("Bulk Shop");
  await sandboxCredit(merchant.merchantId, "BTC", "1");
  await page.setViewportSize(PHONE);
  await signIn(page, merchant);
  await (await navLink(page, "Bulk payouts")).click();
  await expect(page.getByRole("heading", { name: "Bulk payouts", level: 1 })).toBeVisible();

  // The template names every column in its first line.
  const [template] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Download the template" }).click(),
  ]);
  const header = readFileSync((await template.path())!, "utf8")
    .trim()
    .split(",");
  expect(header).toContain("reference");
  expect(header).toContain("receiver_type");

  await expect(page.getByLabel("Legal name").first()).toHaveValue("Bulk Shop");
  await page.getByLabel("Country of registration").first().fill("DEU");
  const tag = `${Date.now()}`;
  const good = (n: number, amount: string) =>
    `${tag}-${n},BTC,${amount},${BTC},natural,Ada,Lovelace,1990-12-10`;
  // Line 3: an address whose checksum fails; line 4: a formula where the reference goes.
  await page
    .getByLabel("CSV file")
    .setInputFiles(
      csvFile([
        good(1, "0.01"),
        `${tag}-2,BTC,0.02,${BTC.slice(0, -1)}x,self,,,`,
        `=1+1,BTC,0.03,${BTC},self,,,`,
      ]),
    );
  await page.getByRole("button", { name: "Check file" }).click();
  await expect(page.getByRole("heading", { name: "2 problems on 2 lines of 3 payouts" })).toBeVisible();
  const problems = page.getByRole("region", { name: "Problems by line" });
  await expect(problems.getByRole("row")).toHaveCount(3);
  await expect(problems.getByRole("row").nth(1)).toContainText(/3\s*address/);
  await expect(problems.getByRole("row").nth(2)).toContainText(/4\s*reference\s*The cell starts with "="/);
  // Nothing can be sent until the merchant fixes the file or chooses to leave those lines out.
  await expect(page.getByRole("button", { name: /^Send/ })).toHaveCount(0);
  await expect(
    page.getByLabel("Leave out the 2 lines with problems and send the other 1 payout"),
  ).toBeVisible();
  await checkBothWidths(page, testInfo, "bulk-errors");

  // The fixed file: three payouts, what they take from the balance (3 × 0.00002 BTC network fee).
  await page
    .getByLabel("CSV file")
    .setInputFiles(csvFile([good(1, "0.01"), good(2, "0.02"), good(3, "0.03")]));
  await page.getByRole("button", { name: "Check file" }).click();
  await expect(page.getByRole("heading", { name: "3 payouts ready to send" })).toBeVisible();
  const totals = page.getByRole("region", { name: "Totals by currency" });
  await expect(totals.getByRole("row", { name: /BTC/ })).toContainText(
    /3\s*0\.06 BTC\s*0\.00006 BTC\s*1 BTC\s*0\.93994 BTC/,
  );
  await checkBothWidths(page, testInfo, "bulk-ready");

  await page.getByRole("button", { name: "Send 3 payouts" }).click();
  await confirmStepUp(page, merchant.password);
  await expect(page).toHaveURL(/\/dashboard\/payouts\/bulk\/\d+$/);
  await expect(page.getByRole("heading", { name: /^Bulk payout \d+$/ })).toBeVisible();
  const payouts = page.getByRole("region", { name: "Payouts of this bulk payout" });
  await expect(payouts.getByRole("row")).toHaveCount(4);
  // The page follows the payouts by itself until each has its txid on the sandbox chain.
  await expect(payouts.getByText(/^[0-9a-f]{64}$/)).toHaveCount(3, { timeout: 20_000 });
  await checkBothWidths(page, testInfo, "bulk-progress");

  const [result] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Download the result (CSV)" }).click(),
  ]);
  const rows = parse(readFileSync((await result.path())!, "utf8"), { columns: true }) as Record<
    string,
    string
  >[];
  expect(rows.map((r) => [r.line, r.reference, r.amount])).toEqual([
    ["2", `${tag}-1`, "0.01000000"],
    ["3", `${tag}-2`, "0.02000000"],
    ["4", `${tag}-3`, "0.03000000"],
  ]);
  expect(rows.every((r) => /^\d+$/.test(r.id!) && /^[0-9a-f]{64}$/.test(r.txid!))).toBe(true);

  // The same file again is recognised, not sent twice.
  await page.goto("/dashboard/payouts/bulk");
  await page.getByLabel("Country of registration").first().fill("DEU");
  await page
    .getByLabel("CSV file")
    .setInputFiles(csvFile([good(1, "0.01"), good(2, "0.02"), good(3, "0.03")]));
  await page.getByRole("button", { name: "Check file" }).click();
  await expect(page.getByRole("heading", { name: "Already sent" })).toBeVisible();
  await expect(page.getByRole("link", { name: "See its payouts" })).toBeVisible();
});
