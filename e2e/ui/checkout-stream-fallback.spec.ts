import { expect, test, UNMINED } from "../fixtures";

/**
 * The checkout page when its event stream is refused: over the cap of live pages per
 * invoice the stream answers 429, and the page falls back to polling GET /api/checkout/<token>, so
 * the customer still sees the payment arrive without reloading. Invoices are paid in a currency no
 * test mines: on BTC, another test's blocks could confirm the payment before the page polled, and it
 * would show "Invoice paid" instead (e2e/fixtures.ts, UNMINED).
 */
test("a page refused a live stream polls instead, and still shows the payment", async ({
  page,
  client,
  baseURL,
}) => {
  const created = await client.post("/invoices/create", {
    end_user_reference: "fallback-1",
    timer: true,
    title: "Fallback order",
    foreign_id: `fallback-${Date.now()}`,
    currency: "EUR",
    amount: "120",
    sender_currency: UNMINED,
    url_success: `${baseURL}/?paid=1`,
    url_failed: `${baseURL}/?failed=1`,
    email_user: "buyer@example.com",
    sender_type: "natural",
    sender_data: { first_name: "Ada", last_name: "Lovelace", date_of_birth: "1990-12-10" },
  });
  expect(created.status()).toBe(201);
  const { url } = (await created.json()).data as { url: string };
  const token = new URL(url).pathname.split("/").pop()!;

  // Twenty other pages already follow this invoice (the default cap per invoice).
  const held = new AbortController();
  const others = [];
  for (let i = 0; i < 20; i++) {
    const response = await fetch(`${baseURL}/api/checkout/${token}/events`, { signal: held.signal });
    expect(response.status).toBe(200);
    others.push(response);
  }
  try {
    const refused = page.waitForResponse((response) =>
      response.url().endsWith(`/api/checkout/${token}/events`),
    );
    await page.goto(`/pay/${token}`);
    expect((await refused).status()).toBe(429);
    await expect(page.getByText("Amount to send")).toBeVisible();

    const view = (await (await fetch(`${baseURL}/api/checkout/${token}`)).json()) as {
      address: string;
      sender_amount: string;
    };
    const paid = await client.post("/sandbox/payments", {
      address: view.address,
      currency: UNMINED,
      amount: view.sender_amount,
    });
    expect(paid.status()).toBe(201);
    // Polled every 3 seconds: no reload, no stream.
    const polled = page.waitForResponse((response) => response.url().endsWith(`/api/checkout/${token}`));
    await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible({ timeout: 15_000 });
    expect((await polled).status()).toBe(200);
  } finally {
    held.abort();
    for (const response of others) await response.body?.cancel().catch(() => {});
  }
});

/**
 * A refused page does not stay on polling for good: it polls meanwhile and opens the stream again
 * after a backoff (components/checkout/use-live-invoice.ts), and once the stream is open the payment
 * arrives through it.
 */
test("a page refused a live stream returns to the stream once there is room", async ({
  page,
  client,
  baseURL,
}) => {
  const created = await client.post("/invoices/create", {
    end_user_reference: "fallback-2",
    timer: true,
    title: "Return order",
    foreign_id: `return-${Date.now()}`,
    currency: "EUR",
    amount: "120",
    sender_currency: UNMINED,
    url_success: `${baseURL}/?paid=1`,
    url_failed: `${baseURL}/?failed=1`,
    email_user: "buyer@example.com",
    sender_type: "natural",
    sender_data: { first_name: "Ada", last_name: "Lovelace", date_of_birth: "1990-12-10" },
  });
  expect(created.status()).toBe(201);
  const { url } = (await created.json()).data as { url: string };
  const token = new URL(url).pathname.split("/").pop()!;
  const isStream = (address: string) => address.endsWith(`/api/checkout/${token}/events`);

  const held = new AbortController();
  const others = [];
  for (let i = 0; i < 20; i++) {
    const response = await fetch(`${baseURL}/api/checkout/${token}/events`, { signal: held.signal });
    expect(response.status).toBe(200);
    others.push(response);
  }
  const refused = page.waitForResponse((response) => isStream(response.url()));
  await page.goto(`/pay/${token}`);
  expect((await refused).status()).toBe(429);
  // Polling meanwhile, as before.
  const polled = await page.waitForResponse((response) => response.url().endsWith(`/api/checkout/${token}`));
  expect(polled.status()).toBe(200);

  // The other pages close: the next try finds room.
  held.abort();
  for (const response of others) await response.body?.cancel().catch(() => {});
  const reopened = await page.waitForResponse(
    (response) => isStream(response.url()) && response.status() === 200,
    { timeout: 45_000 },
  );
  expect(reopened.headers()["content-type"]).toContain("text/event-stream");

  const view = (await (await fetch(`${baseURL}/api/checkout/${token}`)).json()) as {
    address: string;
    sender_amount: string;
  };
  const paid = await client.post("/sandbox/payments", {
    address: view.address,
    currency: UNMINED,
    amount: view.sender_amount,
  });
  expect(paid.status()).toBe(201);
  await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible({ timeout: 15_000 });
});
