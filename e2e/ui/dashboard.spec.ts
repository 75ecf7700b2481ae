import type { Page } from "@playwright/test";
import { DASHBOARD_PAGES } from "../../components/dashboard/pages";
import { cli, createMerchant, expect, sandboxCredit, signedClient, test } from "../fixtures";
import { capture, expectAccessible } from "./page-checks";
import { signIn } from "./sign-in";
import { confirmStepUp } from "./step-up";
import { checkBothWidths, PHONE } from "./widths";

/** Opens a folded section of the invoice form ("Customer details (optional)", "More options") unless open. */
async function unfold(page: Page, section: string) {
  const details = page.locator("details", { has: page.getByText(section, { exact: true }) });
  if (!(await details.evaluate((element) => (element as HTMLDetailsElement).open)))
    await page.getByText(section, { exact: true }).click();
}

/** Fills every field of the invoice form as a merchant would, for a natural-person sender. */
async function fillInvoiceForm(
  page: Page,
  invoice: { title: string; foreignId: string; amount: string; reference: string },
) {
  await page.getByLabel("Title").fill(invoice.title);
  await page.getByLabel("Amount").fill(invoice.amount);
  await unfold(page, "More options");
  await page.getByLabel("Your order id").fill(invoice.foreignId);
  await unfold(page, "Customer details (optional)");
  await page.getByLabel("Sender type").selectOption("natural");
  await page.getByLabel("Customer's e-mail").fill("buyer@example.com");
  await page.getByLabel("Customer reference").fill(invoice.reference);
  await page.getByLabel("Return address after payment").fill("https://shop.example/ok");
  await page.getByLabel("Return address if the payment fails").fill("https://shop.example/failed");
  await page.getByLabel("First name").fill("Ada");
  await page.getByLabel("Last name").fill("Lovelace");
  await page.getByLabel("Date of birth").fill("1990-12-10");
}

test.describe("merchant dashboard", () => {
  test("an invoice created in the form shows up in the explorer", async ({ page }, testInfo) => {
    const merchant = await createMerchant("Form Shop");
    await signIn(page, merchant);
    await page.getByRole("link", { name: "New invoice" }).click();
    const foreignId = `form-${Date.now()}`;
    await fillInvoiceForm(page, {
      title: "Coffee beans, 1 kg",
      foreignId,
      amount: "24.90",
      reference: "cust-77",
    });
    await expectAccessible(page);
    await testInfo.attach("invoice-form-desktop", {
      body: await capture(page, { fullPage: true }),
      contentType: "image/png",
    });
    await page.getByRole("button", { name: "Create invoice" }).click();
    await expect(page.getByRole("heading", { name: /Invoice \d+ created/ })).toBeVisible();
    await expect(page.locator("output").first()).toHaveText(/\/pay\//);

    await page.goto(`/dashboard/transactions?q=${foreignId}`);
    await expect(page.getByRole("cell", { name: foreignId })).toBeVisible();
    await expect(page.getByRole("cell", { name: "24.90 EUR" })).toBeVisible();
  });

  test("sender fields switch with the type, and server errors land on their field", async ({ page }) => {
    const merchant = await createMerchant("Switch Shop");
    await signIn(page, merchant);
    await page.goto("/dashboard/invoices/new");
    await page.getByText("Customer details (optional)", { exact: true }).click();
    // Left to the customer by default: no fields until the merchant says who pays.
    await expect(page.getByLabel("Sender type")).toHaveValue("");
    await expect(page.getByLabel("First name")).toHaveCount(0);
    await page.getByLabel("Sender type").selectOption("natural");
    await expect(page.getByLabel("First name")).toBeVisible();
    await page.getByLabel("Sender type").selectOption("legal");
    await expect(page.getByLabel("First name")).toHaveCount(0);
    await expect(page.getByLabel("Legal name")).toBeVisible();
    await page.getByLabel("Sender type").selectOption("natural");
    await expect(page.getByLabel("Legal name")).toHaveCount(0);

    // A foreign_id the server already knows: the error comes back onto that field.
    const taken = `taken-${Date.now()}`;
    const fill = (id: string) =>
      fillInvoiceForm(page, { title: "Order", foreignId: id, amount: "20", reference: "cust-1" });
    await fill(taken);
    await page.getByRole("button", { name: "Create invoice" }).click();
    await page.getByRole("button", { name: "Create another" }).click();
    await fill(taken);
    await page.getByRole("button", { name: "Create invoice" }).click();
    const field = page.getByLabel("Your order id");
    await expect(field).toHaveAttribute("aria-invalid", "true");
    // Worded with the label on screen, not the API's field name.
    await expect(page.getByText("The “Your order id” has already been taken.")).toBeVisible();
  });

  for (const variant of [
    {
      name: "without conversion, to a person",
      currency: "BTC",
      convertTo: "",
      amount: "0.01",
      receiver: "natural",
    },
    {
      name: "with conversion from EUR, to a company",
      currency: "EUR",
      convertTo: "BTC",
      amount: "200",
      receiver: "legal",
    },
    {
      name: "to the merchant's own wallet (self)",
      currency: "BTC",
      convertTo: "",
      amount: "0.02",
      receiver: "self",
    },
  ]) {
    test(`a payout ${variant.name} reaches confirmed`, async ({ page, request }) => {
      const merchant = await createMerchant("Payout Shop");
      await sandboxCredit(merchant.merchantId, variant.currency, variant.currency === "EUR" ? "1000" : "1");
      await signIn(page, merchant);
      await page.goto("/dashboard/payouts/new");
      await page.getByLabel("Pay from balance").selectOption(variant.currency);
      if (variant.convertTo) await page.getByLabel("Convert to (optional)").selectOption(variant.convertTo);
      await page.getByLabel(/^Amount \(/).fill(variant.amount);
      // The public documentation's testnet address: the sandbox chain takes testnet formats.
      await page.getByLabel(/Destination .* address/).fill("tb1qfdxh6gkfr0qgyatnlkd8khcnxph9tw06n6qwjc");
      await expect(page.getByText("A valid Bitcoin address.")).toBeVisible();
      await page.getByLabel("Customer reference (end_user_reference)").fill("payee-1");
      await page.getByLabel("Legal name").first().fill("Payout Shop GmbH");
      await page.getByLabel("Country of registration").first().fill("DEU");
      await page.getByLabel("Receiver type").selectOption(variant.receiver);
      if (variant.receiver === "natural") {
        await page.getByLabel("First name").fill("Alan");
        await page.getByLabel("Last name").fill("Turing");
        await page.getByLabel("Date of birth").fill("1912-06-23");
      } else if (variant.receiver === "legal") {
        await page.getByLabel("Legal name").nth(1).fill("Receiver Ltd");
        await page.getByLabel("Country of registration").nth(1).fill("GBR");
      } else {
        await expect(page.getByText("no receiver details needed")).toBeVisible();
      }
      await page.getByRole("button", { name: "Review payout" }).click();
      await expect(page.getByRole("heading", { name: "Confirm the payout" })).toBeVisible();
      await expect(page.getByText("Debited from your balance")).toBeVisible();
      await page.getByRole("button", { name: "Confirm payout" }).click();
      // Money leaves: the password again, in the dashboard's one dialog.
      await confirmStepUp(page, merchant.password);
      await expect(page.getByRole("heading", { name: /Payout \d+ accepted/ })).toBeVisible();
      const id = Number(
        /Payout (\d+)/.exec((await page.getByRole("heading", { name: /Payout/ }).textContent())!)![1],
      );
      const client = signedClient(request, merchant);
      await expect
        .poll(
          async () =>
            (
              await (await client.send("POST", "/transactions/info", JSON.stringify({ id }))).json()
            ).transactions.at(-1).txid,
        )
        .toBeTruthy();
      await client.post("/sandbox/blocks", { currency: "BTC", count: 2 });
      await page.goto(`/dashboard/transactions/${id}`);
      await expect(async () => {
        await page.reload();
        await expect(page.getByRole("heading", { level: 1, name: / · Confirmed$/ })).toBeVisible({
          timeout: 1_000,
        });
      }).toPass({ timeout: 15_000 });
      await expect(page.getByText("tb1qfdxh6gkfr0qgyatnlkd8khcnxph9tw06n6qwjc")).toBeVisible();
      await expect(page.getByText(/^Sandbox address, on a test network/)).toBeVisible();
    });
  }

  test("the explorer filters, searches and pages", async ({ page, request }) => {
    const merchant = await createMerchant("Busy Shop");
    const client = signedClient(request, merchant);
    for (let i = 0; i < 55; i++) {
      await client.post("/invoices/create", {
        end_user_reference: `c-${i % 3}`,
        timer: false,
        title: `Order ${i}`,
        foreign_id: `busy-${i}`,
        currency: i % 2 ? "EUR" : "USD",
        amount: "15",
        url_success: "https://shop.example/ok",
        url_failed: "https://shop.example/failed",
        email_user: "buyer@example.com",
        sender_type: "natural",
        sender_data: { first_name: "Ada", last_name: "Lovelace", date_of_birth: "1990-12-10" },
      });
    }
    await signIn(page, merchant);
    await page.goto("/dashboard/transactions");
    await expect(page.getByRole("row")).toHaveCount(51); // header + 50
    await page.getByRole("button", { name: "Load older transactions" }).click();
    await expect(page.getByRole("row")).toHaveCount(56);
    await expect(page.getByRole("button", { name: "Load older transactions" })).toHaveCount(0);

    await page.getByLabel("Currency").selectOption("USD");
    await page.getByRole("button", { name: "Apply filters" }).click();
    await expect(page).toHaveURL(/currency=USD/);
    await expect(page.getByRole("row")).toHaveCount(29); // 28 USD invoices + header
    await page.getByLabel("Search").fill("busy-7");
    await page.getByLabel("Currency").selectOption("");
    await page.getByRole("button", { name: "Apply filters" }).click();
    await expect(page.getByRole("row")).toHaveCount(2);
    await expect(page.getByRole("cell", { name: "busy-7", exact: true })).toBeVisible();
    await expectAccessible(page);

    const csv = await page.request.get("/api/dashboard/transactions/export?currency=EUR");
    const lines = (await csv.text()).trim().split("\r\n");
    expect(lines[0]).toBe(
      "id,created_at,type,status,wire_status,currency,amount,foreign_id,end_user_reference," +
        "fee,fee_currency,net,net_currency,destination_address,txid,fiat_value,fiat_currency",
    );
    expect(lines).toHaveLength(28);
  });

  test("the explorer stacks rows on a phone, filters payouts by meaning, heads details in words and exports for an accountant", async ({
    page,
    request,
  }, testInfo) => {
    const merchant = await createMerchant("Ledger Shop");
    const id = String(merchant.merchantId);
    await sandboxCredit(id, "EUR", "1000");
    await sandboxCredit(id, "BTC", "1");
    // Every BTC payout waits for an approver, so each stays in one status while the test reads it.
    await cli("merchants", "limits", "--merchant", id, "--currency", "BTC", "--per-withdrawal", "0.0001");
    const client = signedClient(request, merchant);
    const address = "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu";
    const payout = async (fields: Record<string, string>) => {
      const foreignId = `ledger-${fields.currency}-${Date.now()}`;
      const response = await client.post("/withdrawal/crypto", {
        ...fields,
        address,
        foreign_id: foreignId,
        end_user_reference: "payee-1",
        sender_type: "legal",
        sender_data: { legal_name: "Ledger Shop GmbH", country_of_registration: "DEU" },
        receiver_type: "self",
      });
      expect(response.status()).toBe(201);
      const { data } = await response.json();
      return { id: data.id as number, status: data.status as string, foreignId };
    };
    const invoice = (
      await (
        await client.post("/invoices/create", {
          end_user_reference: "cust-1",
          timer: false,
          title: "Lamp",
          foreign_id: `ledger-invoice-${Date.now()}`,
          currency: "EUR",
          amount: "120",
          url_success: "https://shop.example/ok",
          url_failed: "https://shop.example/failed",
          email_user: "buyer@example.com",
          sender_type: "natural",
          sender_data: { first_name: "Ada", last_name: "Lovelace", date_of_birth: "1990-12-10" },
        })
      ).json()
    ).data as { id: number };
    const plain = await payout({ currency: "BTC", amount: "0.001" });
    const converted = await payout({ currency: "EUR", convert_to: "BTC", amount: "100" });
    expect([plain.status, converted.status]).toEqual(["pending", "pending"]);
    await signIn(page, merchant);

    // A phone: one stacked row per transaction, kind and status in words, nothing cut off.
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto("/dashboard/transactions");
    const list = page.getByRole("list", { name: "Transactions, newest first" });
    const row = list.getByRole("listitem").filter({ hasText: `Payout with conversion ${converted.id}` });
    await expect(row).toContainText("100.00 EUR");
    await expect(row).toContainText("Waiting for approval");
    await expect(row).toContainText(`Your id ${converted.foreignId}`);
    await expect(row.locator("p").nth(1)).toHaveText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
    await expect(list.getByRole("listitem")).toHaveCount(3);
    const cutOff = await list.evaluate((element) =>
      [element, ...element.querySelectorAll("*")]
        .filter(
          (node) =>
            node.scrollWidth > node.clientWidth + 1 || node.getBoundingClientRect().right > window.innerWidth,
        )
        .map((node) => node.textContent),
    );
    expect(cutOff).toEqual([]);
    await expectAccessible(page);
    await testInfo.attach("explorer-phone", {
      body: await capture(page, { fullPage: true }),
      contentType: "image/png",
    });

    // "Payouts" is every payout, conversions included, and nothing else.
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByLabel("Type").selectOption({ label: "Payouts" });
    await page.getByRole("button", { name: "Apply filters" }).click();
    await expect(page).toHaveURL(/type=withdrawal/);
    const table = page.getByRole("table");
    await expect(table.getByRole("row")).toHaveCount(3);
    const rowOf = (transactionId: number) =>
      table
        .getByRole("row")
        .filter({ has: page.getByRole("link", { name: String(transactionId), exact: true }) });
    await expect(rowOf(converted.id)).toContainText("Payout with conversion");
    await expect(rowOf(plain.id)).toContainText("Payout");
    await expect(rowOf(invoice.id)).toHaveCount(0);
    await expectAccessible(page);
    await testInfo.attach("explorer-payouts-desktop", {
      body: await capture(page, { fullPage: true }),
      contentType: "image/png",
    });

    // The detail page is headed in words, at both widths.
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      await page.goto(`/dashboard/transactions/${converted.id}`);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(
        `Payout with conversion ${converted.id} · Waiting for approval`,
      );
      await expectAccessible(page);
    }

    // The export: fee, net, address, txid and fiat value, as the public API reports the payout.
    const csv = await page.request.get("/api/dashboard/transactions/export?type=withdrawal");
    const [header, ...lines] = (await csv.text()).trim().split("\r\n");
    const columns = header!.split(",");
    expect(columns.slice(-8)).toEqual([
      "fee",
      "fee_currency",
      "net",
      "net_currency",
      "destination_address",
      "txid",
      "fiat_value",
      "fiat_currency",
    ]);
    expect(lines).toHaveLength(2);
    const cells = (line: string) =>
      Object.fromEntries(JSON.parse(`[${line}]`).map((cell: string, i: number) => [columns[i], cell]));
    const exported = lines.map(cells).find((line) => line.id === String(converted.id))!;
    const info = await (
      await client.send("POST", "/transactions/info", JSON.stringify({ id: converted.id }))
    ).json();
    const units = (text: string) => {
      const [whole, fraction = ""] = text.split(".");
      return BigInt(whole!) * 10n ** 8n + BigInt(fraction.padEnd(8, "0"));
    };
    const feeSum = info.fees.reduce((sum: bigint, fee: { amount: string }) => sum + units(fee.amount), 0n);
    expect(units(exported.fee)).toBe(feeSum);
    expect(feeSum).toBeGreaterThan(0n);
    expect(exported.fee_currency).toBe("EUR");
    expect(exported.net).toBe(info.currency_received.amount);
    expect(exported.net_currency).toBe("BTC");
    expect(exported.destination_address).toBe(address);
    expect(exported.txid).toBe(""); // waiting for approval: nothing sent yet
    expect(exported.fiat_value).toBe("100.00000000");
    expect(exported.fiat_currency).toBe("EUR");
  });

  test("another merchant's transaction is not found, in pages and in the dashboard API", async ({
    page,
    request,
  }) => {
    const owner = await createMerchant("Owner");
    const { data } = await (
      await signedClient(request, owner).post("/invoices/create", {
        end_user_reference: "c",
        timer: false,
        title: "Private",
        foreign_id: `private-${Date.now()}`,
        currency: "EUR",
        amount: "50",
        url_success: "https://shop.example/ok",
        url_failed: "https://shop.example/failed",
        email_user: "buyer@example.com",
        sender_type: "natural",
        sender_data: { first_name: "Ada", last_name: "Lovelace", date_of_birth: "1990-12-10" },
      })
    ).json();
    await signIn(page, await createMerchant("Snoop"));
    const response = await page.goto(`/dashboard/transactions/${data.id}`);
    expect(response!.status()).toBe(404);
    const api = await page.request.get(`/api/dashboard/transactions/${data.id}`);
    expect(api.status()).toBe(404);
    await page.goto(`/dashboard/transactions?q=${data.foreign_id}`);
    await expect(page.getByText("No transaction matches these filters.")).toBeVisible();
  });

  test("the below-minimum callback is turned on from the Callbacks page, and a held deposit is labelled", async ({
    page,
    request,
  }) => {
    const merchant = await createMerchant("Holder");
    const client = signedClient(request, merchant);
    await signIn(page, merchant);
    await page.goto("/dashboard/callbacks");
    const toggle = page.getByRole("checkbox", { name: /Deposits less than the minimum amount/ });
    await expect(toggle).not.toBeChecked(); // off by default
    await toggle.check();
    // Callback settings are confirmed like the callback URL: the one dialog.
    await confirmStepUp(page, merchant.password);
    await expect(toggle).toBeChecked();
    await expect
      .poll(
        async () =>
          (await (await page.request.get("/api/dashboard/callback-settings")).json())
            .is_below_minimum_callback_on,
      )
      .toBe(true);
    await page.reload();
    await expect(page.getByRole("checkbox", { name: /Deposits less than the minimum amount/ })).toBeChecked();

    const address = (
      await (await client.post("/addresses/take", { foreign_id: "small", currency: "BTC" })).json()
    ).data;
    await client.post("/sandbox/payments", { address: address.address, currency: "BTC", amount: "0.00005" });
    await page.goto("/dashboard/transactions?status=below_minimum");
    await expect(page.getByRole("cell", { name: "below minimum (held, not credited)" })).toBeVisible();
  });

  test("every page is accessible at a phone's and a desktop's width, with screenshots", async ({
    page,
  }, testInfo) => {
    test.setTimeout(180_000); // 13 pages, each loaded, scanned by axe and photographed at two widths
    const merchant = await createMerchant("Tour Shop");
    await sandboxCredit(merchant.merchantId, "EUR", "250");
    await page.setViewportSize(PHONE);
    await signIn(page, merchant);
    for (const { href: path } of DASHBOARD_PAGES) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await page.waitForLoadState("networkidle");
      await checkBothWidths(page, testInfo, `owner${path.replace(/\//g, "_")}`);
    }
  });

  test("signing out ends the session", async ({ page }) => {
    const merchant = await createMerchant("Leaving Shop");
    await signIn(page, merchant);
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/login/);
    await page.goto("/dashboard/transactions");
    await expect(page).toHaveURL(/\/login/);
  });

  test("sign-in locks an e-mail after five wrong passwords", async ({ page }) => {
    const merchant = await createMerchant("Locked Shop");
    for (let i = 0; i < 5; i++) {
      await page.goto("/login");
      await page.getByLabel("E-mail").fill(merchant.email);
      await page.getByLabel("Password").fill(`wrong-password-${i}`);
      await page.getByRole("button", { name: "Sign in" }).click();
      await expect(page.locator("form").getByRole("alert")).toHaveText(
        "The e-mail or password is not right.",
      );
    }
    await page.getByLabel("Password").fill(merchant.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.locator("form").getByRole("alert")).toHaveText(/Too many failed sign-ins/);
  });

  test("dashboard mutations refuse other origins and signed-out callers", async ({ page }) => {
    const merchant = await createMerchant("Csrf Shop");
    await signIn(page, merchant);
    const forged = await page.request.post("/api/dashboard/api-keys", {
      data: { label: "forged" },
      headers: { origin: "https://evil.example" },
    });
    expect(forged.status()).toBe(403);
    const anonymous = await page
      .context()
      .request.fetch("/api/dashboard/balances", { headers: { cookie: "" } });
    expect([401, 200]).toContain(anonymous.status());
  });
});
