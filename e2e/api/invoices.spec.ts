import { expect, OWN_CHAIN, type SignedClient, test } from "../fixtures";

let counter = 0;
function invoice(overrides: Record<string, unknown> = {}) {
  counter++;
  return {
    end_user_reference: `e2e-cust-${counter}`,
    timer: true,
    title: "Order",
    foreign_id: `e2e-${Date.now()}-${counter}`,
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

async function errorsFor(client: SignedClient, payload: Record<string, unknown>) {
  const response = await client.post("/invoices/create", payload);
  expect(response.status(), JSON.stringify(payload)).toBe(400);
  return (await response.json()).errors as Record<string, string>;
}

test.describe("POST /invoices/create validation (spec 2.2 and 2.1)", () => {
  test("accepts a complete request, with and without the optional fields", async ({ client }) => {
    const minimal = await client.post("/invoices/create", invoice());
    expect(minimal.status()).toBe(201);
    const full = await client.post(
      "/invoices/create",
      invoice({
        type: "good_until_expired",
        description: "Two tickets",
        sender_currency: "BTC",
        amount: "25.50",
      }),
    );
    expect(full.status()).toBe(201);
    const data = (await full.json()).data;
    // timer: true with sender_currency: pending at once, with its address (the public API's type 3).
    expect(data).toMatchObject({ status: "pending", sender_currency: "BTC", amount: "25.50000000" });
    expect(data.address).toEqual(expect.any(String));
    expect(data.seconds_left).toBeGreaterThan(890);
    expect(data.sender_amount).toMatch(/^0\.000\d{5}$/);
    expect(typeof data.fixed_at).toBe("number");
    expect(data.release_at - data.fixed_at).toBe(900);
    const legal = await client.post(
      "/invoices/create",
      invoice({
        sender_type: "legal",
        sender_data: { legal_name: "Acme GmbH", country_of_registration: "DEU" },
      }),
    );
    expect(legal.status()).toBe(201);
  });

  const cases: [string, Record<string, unknown>, string, RegExp][] = [
    ["missing title", { title: undefined }, "title", /required/],
    ["title over 50", { title: "x".repeat(51) }, "title", /50 characters/],
    ["empty title", { title: "" }, "title", /required/],
    ["description over 1000", { description: "x".repeat(1001) }, "description", /1000 characters/],
    ["unknown type", { type: "forever" }, "type", /invalid/],
    ["timer not boolean", { timer: "yes" }, "timer", /true or false/],
    ["missing timer", { timer: undefined }, "timer", /required/],
    ["unknown currency", { currency: "ABC" }, "currency", /invalid/],
    ["amount zero", { amount: 0 }, "amount", /greater than zero/],
    ["amount negative", { amount: "-5" }, "amount", /greater than zero/],
    // EUR takes 8 fraction digits, as the public API's fiat.
    ["amount in exponent form finer than EUR allows", { amount: "1e-9" }, "amount", /decimal places/],
    ["amount finer than EUR allows", { amount: "10.000000001" }, "amount", /decimal places/],
    ["amount below the minimum", { amount: "1" }, "amount", /at least 10/],
    ["url_success not http(s)", { url_success: "javascript:alert(1)" }, "url_success", /http/],
    ["url_failed relative", { url_failed: "/failed" }, "url_failed", /http/],
    ["email_user not an e-mail", { email_user: "buyer" }, "email_user", /e-?mail/],
    ["sender_currency fiat", { sender_currency: "USD" }, "sender_currency", /crypto/],
    ["missing sender_type", { sender_type: undefined }, "sender_type", /./],
    [
      "natural sender missing last name",
      { sender_data: { first_name: "A", date_of_birth: "1990-01-01" } },
      "sender_data.last_name",
      /required/,
    ],
    [
      "natural sender with a legal field",
      { sender_data: { first_name: "A", last_name: "B", date_of_birth: "1990-01-01", legal_name: "X" } },
      "sender_data.legal_name",
      /prohibited/,
    ],
    [
      "date of birth not a date",
      { sender_data: { first_name: "A", last_name: "B", date_of_birth: "1990-02-30" } },
      "sender_data.date_of_birth",
      /real date/,
    ],
    [
      "legal sender with a bad country",
      { sender_type: "legal", sender_data: { legal_name: "X", country_of_registration: "ZZZ" } },
      "sender_data.country_of_registration",
      /alpha-3/,
    ],
    [
      "end_user_reference is an e-mail",
      { end_user_reference: "ada@example.com" },
      "end_user_reference",
      /e-mail/,
    ],
  ];
  for (const [name, overrides, field, message] of cases) {
    test(`refuses ${name}`, async ({ client }) => {
      const payload = invoice(overrides);
      for (const [key, value] of Object.entries(overrides))
        if (value === undefined) delete payload[key as keyof typeof payload];
      const errors = await errorsFor(client, payload);
      expect(errors[field], JSON.stringify(errors)).toMatch(message);
    });
  }

  test("refuses a repeated foreign_id, as the public API words it", async ({ client }) => {
    const payload = invoice();
    expect((await client.post("/invoices/create", payload)).status()).toBe(201);
    expect(await errorsFor(client, { ...payload, end_user_reference: "someone-else" })).toEqual({
      foreign_id: "The foreign id has already been taken.",
    });
  });

  test("refuses a sender who contradicts the customer recorded under the same reference", async ({
    client,
  }) => {
    const first = invoice();
    expect((await client.post("/invoices/create", first)).status()).toBe(201);
    const errors = await errorsFor(client, {
      ...invoice(),
      end_user_reference: first.end_user_reference,
      sender_data: { first_name: "Ada", last_name: "Lovelace", date_of_birth: "1977-01-01" },
    });
    expect(errors["sender_data.date_of_birth"]).toMatch(/same customer/);
  });
});

test.describe("an invoice paid on the sandbox chain, over HTTP", () => {
  test("created → pending → processing → confirmed, and the balance is credited", async ({
    client,
    request,
  }) => {
    const before = await (await client.post("/accounts/list")).json();
    const eurBefore = Number(before.data.find((a: { currency: string }) => a.currency === "EUR").balance);
    const created = (
      await (await client.post("/invoices/create", invoice({ amount: "200", timer: false }))).json()
    ).data;
    const token = created.url.split("/pay/")[1];

    const checkout = await (await request.get(`/api/checkout/${token}`)).json();
    expect(checkout).toMatchObject({ status: "created", currency: "EUR", amount: "200.00000000" });
    expect(checkout).not.toHaveProperty("email_user");
    // A chain no other test mines: on BTC, another test's blocks could confirm the payment before
    // this test reads "processing" (e2e/fixtures.ts, OWN_CHAIN).
    const coin = OWN_CHAIN.invoiceLifeCycle;
    expect(checkout.currencies.map((c: { currency: string }) => c.currency)).toContain(coin);

    const fixed = await (
      await request.post(`/api/checkout/${token}/currency`, { data: { currency: coin } })
    ).json();
    // Bitcoin Cash: 6 confirmations, and the CashAddr prefix is the URI's scheme.
    expect(fixed).toMatchObject({ status: "pending", sender_currency: coin, confirmations_required: 6 });
    expect(fixed.address).toMatch(/^bchtest:/);
    expect(fixed.payment_uri).toBe(`${fixed.address}?amount=${Number(fixed.sender_amount)}`);

    const paid = await client.post("/sandbox/payments", {
      address: fixed.address,
      currency: coin,
      amount: fixed.sender_amount,
    });
    expect(paid.status()).toBe(201);
    expect((await paid.json()).data).toMatchObject({ is_recognized: true, confirmations: 0 });
    expect((await (await request.get(`/api/checkout/${token}`)).json()).status).toBe("processing");

    expect((await client.post("/sandbox/blocks", { currency: coin, count: 6 })).status()).toBe(201);
    await expect
      .poll(async () => (await (await request.get(`/api/checkout/${token}`)).json()).status, {
        timeout: 15_000,
      })
      .toBe("confirmed");
    const after = await (await client.post("/accounts/list")).json();
    const eurAfter = Number(after.data.find((a: { currency: string }) => a.currency === "EUR").balance);
    expect(eurAfter - eurBefore).toBeCloseTo(199, 0); // 200 EUR less the 0.5% deposit fee
  });

  test("the checkout switches a customer's coin until a payment is seen, never a merchant's, and knows no other tokens", async ({
    client,
    request,
  }) => {
    const created = (await (await client.post("/invoices/create", invoice())).json()).data;
    const token = created.url.split("/pay/")[1];
    const choose = (currency: string, path = token) =>
      request.post(`/api/checkout/${path}/currency`, { data: { currency } });
    const ltc = await choose("LTC");
    expect(ltc.status()).toBe(200);
    const first = await ltc.json();
    expect((await choose("LTC")).status()).toBe(200);
    // The customer chose LTC: another coin switches, with a new address ("pay with another currency").
    const btc = await choose("BTC");
    expect(btc.status()).toBe(200);
    const switched = await btc.json();
    expect(switched).toMatchObject({ sender_currency: "BTC", can_switch_currency: true });
    expect(switched.address).not.toBe(first.address);
    expect(switched.expires_at).toBe(first.expires_at);
    const choices = await request.get(`/api/checkout/${token}/currency`);
    expect(choices.status()).toBe(200);
    expect((await choices.json()).currencies.map((c: { currency: string }) => c.currency)).toContain("LTC");
    // Once a payment is seen (here, to the LTC address shown first), no more switching.
    await client.post("/sandbox/payments", { address: first.address, currency: "LTC", amount: "0.1" });
    const late = await choose("ETH");
    expect(late.status()).toBe(400);
    expect((await late.json()).errors.currency).toMatch(/already seen/);
    // A currency the merchant fixed never switches.
    const fixed = (await (await client.post("/invoices/create", invoice({ sender_currency: "BTC" }))).json())
      .data;
    const refused = await choose("LTC", fixed.url.split("/pay/")[1]);
    expect(refused.status()).toBe(400);
    expect((await refused.json()).errors.currency).toMatch(/cannot be changed/);
    expect((await request.get("/api/checkout/not-a-real-token")).status()).toBe(404);
    expect((await request.get("/api/checkout/not-a-real-token/currency")).status()).toBe(404);
  });
});

test.describe("POST /addresses/take", () => {
  test("returns one permanent address per customer and currency, and deposits to it are credited", async ({
    client,
  }) => {
    const first = await client.post("/addresses/take", { foreign_id: "user-id:2048", currency: "LTC" });
    expect(first.status()).toBe(201);
    const address = (await first.json()).data;
    expect(address).toMatchObject({
      currency: "LTC",
      foreign_id: "user-id:2048",
      tag: null,
      convert_to: null,
    });
    // The sandbox chain hands out testnet addresses (DESIGN.md section 5).
    expect(address.address).toMatch(/^tltc1q/);
    const again = (
      await (await client.post("/addresses/take", { foreign_id: "user-id:2048", currency: "LTC" })).json()
    ).data;
    expect(again.address).toBe(address.address);

    await client.post("/sandbox/payments", { address: address.address, currency: "LTC", amount: "2" });
    await client.post("/sandbox/blocks", { currency: "LTC", count: 6 });
    await expect
      .poll(async () => {
        const accounts = await (await client.post("/accounts/list")).json();
        return accounts.data.find((a: { currency: string }) => a.currency === "LTC").balance;
      })
      .toBe("1.99000000");
  });

  test("gives XRP addresses a destination tag, and validates its input", async ({ client }) => {
    const xrp = (await (await client.post("/addresses/take", { foreign_id: "u1", currency: "XRP" })).json())
      .data;
    expect(xrp.address).toMatch(/^r/);
    expect(xrp.tag).toMatch(/^\d+$/);
    const bad = await client.post("/addresses/take", { foreign_id: "u1", currency: "EUR" });
    expect(bad.status()).toBe(400);
    expect((await bad.json()).errors.currency).toMatch(/crypto/);
    const missing = await client.post("/addresses/take", { currency: "BTC" });
    expect((await missing.json()).errors.foreign_id).toBe("The foreign id field is required.");
  });
});

test.describe("sandbox chain endpoints", () => {
  test("validate addresses with their checksums and the block count", async ({ client }) => {
    const bad = await client.post("/sandbox/payments", {
      address: "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyv",
      currency: "BTC",
      amount: "0.1",
    });
    expect(bad.status()).toBe(400);
    expect((await bad.json()).errors.address).toMatch(/not a valid Bitcoin address/);
    const tooMany = await client.post("/sandbox/blocks", { currency: "BTC", count: 1000 });
    expect((await tooMany.json()).errors.count).toBeDefined();
    const stranger = await client.post("/sandbox/payments", {
      address: "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu",
      currency: "BTC",
      amount: "0.1",
    });
    expect((await stranger.json()).data.is_recognized).toBe(false);
  });
});

test("addresses/take checks the customer data rules when a customer is named", async ({ client }) => {
  const response = await client.post("/addresses/take", {
    foreign_id: "u-kyc",
    currency: "BTC",
    end_user_reference: "u-kyc",
    sender_type: "natural",
    sender_data: { first_name: "Ada" },
  });
  expect(response.status()).toBe(400);
  expect((await response.json()).errors).toMatchObject({
    "sender_data.last_name": "The last name field is required.",
    "sender_data.date_of_birth": "The date of birth field is required.",
  });
  const ok = await client.post("/addresses/take", {
    foreign_id: "u-kyc",
    currency: "BTC",
    end_user_reference: "u-kyc",
    sender_type: "natural",
    sender_data: { first_name: "Ada", last_name: "Lovelace", date_of_birth: "1990-12-10" },
  });
  expect(ok.status()).toBe(201);
});
