import { createMerchant, expect, OWN_CHAIN, type SignedClient, sign, signedClient, test } from "../fixtures";

let counter = 0;
function invoice(overrides: Record<string, unknown> = {}) {
  counter++;
  return {
    end_user_reference: `life-${counter}`,
    timer: true,
    title: "Order",
    foreign_id: `life-${Date.now()}-${counter}`,
    currency: "EUR",
    amount: 100,
    url_success: "https://shop.example/paid",
    url_failed: "https://shop.example/failed",
    email_user: "buyer@example.com",
    sender_type: "natural",
    sender_data: { first_name: "Ada", last_name: "Lovelace", date_of_birth: "1990-12-10" },
    ...overrides,
  };
}

async function create(client: SignedClient, overrides: Record<string, unknown> = {}) {
  const payload = invoice(overrides);
  const response = await client.post("/invoices/create", payload);
  expect(response.status()).toBe(201);
  return (await response.json()).data;
}

/**
 * POST /invoices/<foreign_id>/cancel, signed over `{}` as the public docs' curl sends it, with
 * redirects NOT followed: a 308 would fail Python's urllib, so the answer must come directly.
 */
async function cancel(
  client: SignedClient,
  request: import("@playwright/test").APIRequestContext,
  path: string,
) {
  const body = "{}";
  return request.fetch(`/api/v2${path}`, {
    method: "POST",
    data: Buffer.from(body),
    maxRedirects: 0,
    headers: {
      "content-type": "application/json",
      "x-processing-key": client.merchant.apiKey,
      "x-processing-signature": sign(body, client.merchant.apiSecret),
    },
  });
}

const balanceOf = async (client: SignedClient, currency: string) =>
  (await (await client.post("/accounts/list")).json()).data.find(
    (account: { currency: string }) => account.currency === currency,
  ).balance as string;

test.describe("timer invoices start pending (DESIGN.md section 6)", () => {
  test("with sender_currency: pending with its address at creation, paid without the checkout ever opening", async ({
    client,
    receiver,
  }) => {
    const before = Math.floor(Date.now() / 1000);
    const created = await create(client, { sender_currency: "LTC" });
    expect(created).toMatchObject({ status: "pending", sender_currency: "LTC" });
    expect(created.address).toMatch(/^\S{20,}$/);
    expect(created.sender_amount).toMatch(/^\d+\.\d{8}$/);
    expect(created.fixed_at).toBeGreaterThanOrEqual(before);
    expect(created.release_at - created.fixed_at).toBe(900);
    expect(created.seconds_left).toBeGreaterThanOrEqual(895);
    expect(created.seconds_left).toBeLessThanOrEqual(900);

    // A white-label page shows the address itself; the customer pays it.
    const paid = await client.post("/sandbox/payments", {
      address: created.address,
      currency: "LTC",
      amount: created.sender_amount,
    });
    expect((await paid.json()).data).toMatchObject({ is_recognized: true });
    await client.post("/sandbox/blocks", { currency: "LTC", count: 6 });
    await expect
      .poll(() => receiver.received.map((r) => r.headers["x-kassa-event"]), { timeout: 15_000 })
      .toEqual(["invoice.processing", "invoice.confirmed"]);
    const last = JSON.parse(receiver.received.at(-1)!.body.toString());
    expect(last).toMatchObject({
      id: created.id,
      type: "invoice",
      crypto_address: { address: created.address },
    });
  });

  test("without sender_currency: pending with its clock running; the customer chooses within it on the checkout", async ({
    client,
    request,
  }) => {
    const created = await create(client);
    expect(created).toMatchObject({
      status: "pending",
      address: null,
      sender_currency: null,
      sender_amount: null,
    });
    expect(created.release_at - created.fixed_at).toBe(900);
    const token = created.url.split("/pay/")[1];
    const view = await (await request.get(`/api/checkout/${token}`)).json();
    expect(view).toMatchObject({ status: "pending", is_awaiting_currency: true, address: null });
    expect(view.currencies.map((c: { currency: string }) => c.currency)).toContain("BTC");
    expect(view.expires_at).toBe(created.release_at);

    const fixed = await (
      await request.post(`/api/checkout/${token}/currency`, { data: { currency: "BTC" } })
    ).json();
    expect(fixed).toMatchObject({ status: "pending", sender_currency: "BTC", is_awaiting_currency: false });
    expect(fixed.address).toEqual(expect.any(String));
    // Choosing does not restart the clock: the deadline is still 15 minutes after creation.
    expect(fixed.expires_at).toBe(created.release_at);
    const info = await (await client.post("/transactions/info", { id: created.id })).json();
    expect(info).toMatchObject({ crypto_address: { address: fixed.address, currency: "BTC" } });
  });
});

test.describe("POST /invoices/<foreign_id>/cancel/", () => {
  test("answers [] with or without the trailing slash while created or pending; unknown and foreign invoices are 404", async ({
    client,
    request,
  }) => {
    const created = await create(client, { timer: false });
    expect(created.status).toBe("created");
    const withSlash = await cancel(client, request, `/invoices/${created.foreign_id}/cancel/`);
    expect(withSlash.status()).toBe(200);
    expect(await withSlash.json()).toEqual([]);

    const pending = await create(client);
    const withoutSlash = await cancel(client, request, `/invoices/${pending.foreign_id}/cancel`);
    expect(withoutSlash.status()).toBe(200);
    expect(await withoutSlash.json()).toEqual([]);
    for (const id of [created.id, pending.id]) {
      const info = await (await client.post("/transactions/info", { id })).json();
      expect(info.status).toBe("cancelled");
    }

    expect((await cancel(client, request, "/invoices/no-such-invoice/cancel/")).status()).toBe(404);
    const stranger = signedClient(request, await createMerchant("Stranger"));
    const foreign = await create(stranger);
    expect((await cancel(client, request, `/invoices/${foreign.foreign_id}/cancel/`)).status()).toBe(404);
  });

  test("cancels a processing invoice, credits its payment when it confirms, and refuses final invoices in the public shape", async ({
    client,
    request,
    receiver,
  }) => {
    const eurBefore = Number(await balanceOf(client, "EUR"));
    // A chain no other test mines, so the payment is still unconfirmed when the merchant cancels
    // (on BTC, another test's blocks could confirm it first: e2e/fixtures.ts, OWN_CHAIN).
    const coin = OWN_CHAIN.cancelProcessing;
    const paying = await create(client, { sender_currency: coin });
    await client.post("/sandbox/payments", {
      address: paying.address,
      currency: coin,
      amount: paying.sender_amount,
    });
    const seen = await (await client.post("/transactions/info", { id: paying.id })).json();
    expect(seen.status).toBe("not_confirmed");

    const cancelled = await cancel(client, request, `/invoices/${paying.foreign_id}/cancel/`);
    expect(cancelled.status()).toBe(200);
    expect(await cancelled.json()).toEqual([]);
    // The payment in flight still reaches the merchant when it confirms (a late payment).
    await client.post("/sandbox/blocks", { currency: coin, count: 20 }); // Tron's confirmations
    await expect
      .poll(async () => Number(await balanceOf(client, "EUR")), { timeout: 15_000 })
      .toBeGreaterThan(eurBefore);
    const info = await (await client.post("/transactions/info", { id: paying.id })).json();
    expect(info.status).toBe("cancelled");
    // Delivered in the background, after the processing one (in order per transaction).
    await expect
      .poll(() => receiver.received.map((r) => r.headers["x-kassa-event"]), { timeout: 15_000 })
      .toContain("invoice.cancelled");
    expect(receiver.received[0]!.headers["x-kassa-event"]).toBe("invoice.processing");

    const paid = await create(client, { sender_currency: "LTC" });
    await client.post("/sandbox/payments", {
      address: paid.address,
      currency: "LTC",
      amount: paid.sender_amount,
    });
    await client.post("/sandbox/blocks", { currency: "LTC", count: 6 });
    await expect
      .poll(async () => (await (await client.post("/transactions/info", { id: paid.id })).json()).status, {
        timeout: 15_000,
      })
      .toBe("confirmed");
    for (const foreignId of [paid.foreign_id, paying.foreign_id]) {
      const refused = await cancel(client, request, `/invoices/${foreignId}/cancel/`);
      expect(refused.status()).toBe(400);
      expect(await refused.json()).toEqual({
        errors: {
          error: "Invoice cannot be cancelled in its current state.",
          code: "invalid_invoice_state",
        },
      });
    }
  });
});
