import { dashboardSession, expect, test } from "../fixtures";
import { signIn } from "./sign-in";

const order = (foreignId: string) => ({
  end_user_reference: "links-1",
  timer: false,
  title: "Link check",
  foreign_id: foreignId,
  currency: "EUR",
  amount: "120",
  url_success: "https://shop.example/ok",
  url_failed: "https://shop.example/failed",
  email_user: "buyer@example.com",
  sender_type: "natural",
  sender_data: { first_name: "Ada", last_name: "Lovelace", date_of_birth: "1990-12-10" },
});

/**
 * One rule for the links Kassa builds (lib/api/public-origin.ts). This server has no
 * KASSA_PUBLIC_URL and no trusted proxy, so every link is the address the tests browse: the API's
 * answer, the dashboard's own create call (which Next's pipeline sees as http://localhost) and the
 * dashboard invoice page agree, and an X-Forwarded-Host from an untrusted peer moves none of them.
 */
test("the API, the dashboard's create call and the invoice page give the same link, whatever X-Forwarded-Host says", async ({
  page,
  client,
  merchant,
  baseURL,
}) => {
  const created = await client.post("/invoices/create", order(`links-${Date.now()}`));
  expect(created.status()).toBe(201);
  const { id, url } = (await created.json()).data as { id: number; url: string };
  const token = url.split("/pay/")[1];
  expect(url).toBe(`${baseURL}/pay/${token}`);

  const session = await dashboardSession(merchant);
  try {
    const fromDashboard = await session.post("/api/dashboard/invoices", {
      data: order(`links-dash-${Date.now()}`),
    });
    expect(fromDashboard.status()).toBe(201);
    // Through Next's pipeline, where request.url says http://localhost: the link still names this server.
    const dashboardUrl = (await fromDashboard.json()).url as string;
    expect(new URL(dashboardUrl).origin).toBe(baseURL);
  } finally {
    await session.dispose();
  }

  await signIn(page, merchant);
  await page.setExtraHTTPHeaders({ "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" });
  await page.goto(`/dashboard/invoices/${id}`);
  await expect(page.getByRole("heading", { name: "Link check", level: 1 })).toBeVisible();
  await expect(page.locator("output").filter({ hasText: "/pay/" })).toHaveText(url);
});
