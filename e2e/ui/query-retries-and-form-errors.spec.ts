import { createMerchant, expect, test } from "../fixtures";
import { signIn } from "./sign-in";
import { confirmStepUp } from "./step-up";

/** Requests the explorer's list makes to the dashboard API (its export link is not fetched). */
const LIST = /\/api\/dashboard\/transactions\?/;

test.describe("dashboard forms and queries", () => {
  test("a refused query is shown at once and not asked again", async ({ page }) => {
    await signIn(page, await createMerchant("Refused Shop"));
    const asked: string[] = [];
    page.on("request", (request) => {
      if (LIST.test(request.url())) asked.push(request.url());
    });
    await page.goto("/dashboard/transactions?from=31.12.2026");
    // React Query shows an error only once it has given up, so one request here means no retry.
    await expect(page.getByRole("main").getByRole("alert")).toHaveText(/^Use a date in the form YYYY-MM-DD/);
    expect(asked).toHaveLength(1);
  });

  test("a server fault is asked again, twice at most, and the page recovers", async ({ page }) => {
    await signIn(page, await createMerchant("Flaky Shop"));
    let faults = 0;
    await page.route(LIST, async (route) => {
      if (faults < 2) {
        faults += 1;
        await route.fulfill({ status: 503, json: { error: "Down for a moment.", code: "unavailable" } });
        return;
      }
      await route.continue();
    });
    await page.goto("/dashboard/transactions");
    await expect(page.getByText("No transactions yet")).toBeVisible({ timeout: 15_000 });
    expect(faults).toBe(2);
  });

  test("a server that keeps failing is given up on after two retries", async ({ page }) => {
    await signIn(page, await createMerchant("Down Shop"));
    let asked = 0;
    await page.route(LIST, async (route) => {
      asked += 1;
      await route.fulfill({ status: 503, json: { error: "Down for a moment.", code: "unavailable" } });
    });
    await page.goto("/dashboard/transactions");
    await expect(page.getByRole("main").getByRole("alert")).toHaveText("Down for a moment.", {
      timeout: 15_000,
    });
    expect(asked).toBe(3);
  });

  test("the API's field errors land under their field, with the message for the form", async ({ page }) => {
    const merchant = await createMerchant("Hook Shop");
    await signIn(page, merchant);
    await page.goto("/dashboard/callbacks");
    const url = page.getByLabel("Callback URL");
    await url.fill("not a url");
    await page.getByRole("button", { name: "Save" }).click();
    // Changing where callbacks go is confirmed first (the password, no authenticator here), once a window.
    await confirmStepUp(page, merchant.password);
    await expect(url).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByText("The callback URL must be an absolute URL.")).toBeVisible();
    await expect(page.locator("form").getByRole("alert")).toHaveText("Check the highlighted fields.");
    const save = async (value: string) => {
      await url.fill(value);
      const answer = page.waitForResponse(
        (r) => r.url().endsWith("/api/dashboard/callback-url") && r.request().method() === "PUT" && r.ok(),
      );
      await page.getByRole("button", { name: "Save" }).click();
      expect((await answer).status()).toBe(200);
      await expect(page.getByText("Saved.")).toBeVisible();
      await page.reload();
    };
    await save("http://127.0.0.1:9/kassa");
    await expect(url).toHaveValue("http://127.0.0.1:9/kassa");
    // An empty URL is not "missing": it stops callbacks.
    await save("");
    const setting = await (await page.request.get("/api/dashboard/callback-url")).json();
    expect(setting.callback_url).toBeNull();
  });

  test("forms check their fields with the API's own schema and messages before sending", async ({ page }) => {
    await signIn(page, await createMerchant("Typed Shop"));
    await page.goto("/dashboard/keys");
    let posted = 0;
    page.on("request", (request) => {
      if (request.method() === "POST" && request.url().includes("/api/dashboard/")) posted += 1;
    });
    await page.getByRole("button", { name: "Create key" }).click();
    await expect(page.getByText("The label field is required.")).toBeVisible();
    await expect(page.getByLabel("Name for the new key")).toHaveAttribute("aria-invalid", "true");

    await page.goto("/dashboard/sandbox");
    const mine = page.getByRole("form", { name: "Mine blocks" });
    await mine.getByRole("button", { name: "Mine blocks" }).click();
    await expect(mine.getByText("The count field is required.")).toBeVisible();
    const credit = page.getByRole("form", { name: "Credit balance" });
    await credit.getByLabel("Currency").selectOption("EUR");
    // Fiat has 8 fraction digits (as the public API reports it): a ninth is refused before sending.
    await credit.getByLabel("Amount").fill("1.000000001");
    await credit.getByRole("button", { name: "Credit balance" }).click();
    await expect(credit.getByLabel("Amount")).toHaveAttribute("aria-invalid", "true");
    expect(posted).toBe(0);

    await credit.getByLabel("Amount").fill("12.50");
    await credit.getByRole("button", { name: "Credit balance" }).click();
    await expect(credit.getByText("The EUR balance is now 12.50 EUR.")).toBeVisible();
  });
  test("a toggle shows the click at once, holds it while saving, and springs back with the reason if refused", async ({
    page,
  }) => {
    const merchant = await createMerchant("Toggle Shop");
    await signIn(page, merchant);
    await page.goto("/dashboard/callbacks");
    const toggle = page.getByRole("checkbox", { name: /Deposits less than the minimum amount/ });
    await expect(toggle).toBeEnabled();
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route("**/api/dashboard/callback-settings", async (route) => {
      if (route.request().method() !== "PUT") return route.continue();
      await held;
      await route.continue();
    });
    await toggle.check();
    // The save is still on its way: the box shows the click and cannot be clicked again meanwhile.
    await expect(toggle).toBeChecked();
    await expect(toggle).toBeDisabled();
    release();
    // Callback settings are confirmed like the URL: the one dialog, then the save goes through.
    await confirmStepUp(page, merchant.password);
    await expect(toggle).toBeEnabled();
    await expect(toggle).toBeChecked();
    expect(
      (await (await page.request.get("/api/dashboard/callback-settings")).json())
        .is_below_minimum_callback_on,
    ).toBe(true);

    await page.unroute("**/api/dashboard/callback-settings");
    await page.route("**/api/dashboard/callback-settings", (route) =>
      route.request().method() === "PUT"
        ? route.fulfill({
            status: 403,
            json: { error: "Your role cannot change callbacks.", code: "forbidden" },
          })
        : route.continue(),
    );
    await toggle.click();
    await expect(
      page.getByRole("alert").filter({ hasText: "Your role cannot change callbacks." }),
    ).toBeVisible();
    // Refused: the box shows what is saved, which is still on.
    await expect(toggle).toBeChecked();
  });
});
