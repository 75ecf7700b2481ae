import { expect, type SignedClient, sandboxCredit, test } from "../fixtures";

/**
 * The request bytes real clients of the public API send:
 * the public documentation's own examples, Python's json.dumps exponent forms, and the nulls of
 * clients that send every field. The server runs in sandbox mode, whose chain uses testnet formats.
 */

async function credit(client: SignedClient, currency: string, amount: string) {
  await sandboxCredit(client.merchant.merchantId, currency, amount);
}

test.describe("the public documentation's withdrawals to a testnet address", () => {
  test("the API reference's example (0.0002 BTC to tb1q…) is accepted as documented", async ({ client }) => {
    await credit(client, "BTC", "0.01");
    // The request body of the reference page for POST /withdrawal/crypto, byte for byte as shown there.
    const body = `{
"currency": "BTC",
"foreign_id": "test_foreign_id_0148",
"end_user_reference": "test_end_user_reference",
"sender_type": "legal",
"sender_data": {
"legal_name": "Example GmbH",
"country_of_registration": "DEU"
},
"receiver_type": "natural",
"receiver_data": {
"first_name": "Friedrich",
"last_name": "Müller",
"date_of_birth": "1995-08-17"
},
"address": "tb1qfdxh6gkfr0qgyatnlkd8khcnxph9tw06n6qwjc",
"amount": "0.00020000"
}`;
    const response = await client.send("POST", "/withdrawal/crypto", body);
    expect(response.status()).toBe(201);
    expect((await response.json()).data).toMatchObject({
      foreign_id: "test_foreign_id_0148",
      end_user_reference: "test_end_user_reference",
      type: "withdrawal",
      status: "processing",
      amount: "0.00020000",
      sender_currency: "BTC",
      receiver_currency: "BTC",
      receiver_amount: "0.00020000",
    });
  });

  test("the integration guide's example (100 EUR converted to BTC, sent to tb1q…) is accepted", async ({
    client,
  }) => {
    await credit(client, "EUR", "150");
    const response = await client.post("/withdrawal/crypto", {
      amount: "100",
      currency: "EUR",
      convert_to: "BTC",
      address: "tb1qfdxh6gkfr0qgyatnlkd8khcnxph9tw06n6qwjc",
      foreign_id: "withdrawal_123",
      end_user_reference: "user_12345",
      sender_type: "legal",
      sender_data: { legal_name: "Example GmbH", country_of_registration: "DEU" },
      receiver_type: "natural",
      receiver_data: { first_name: "Friedrich", last_name: "Müller", date_of_birth: "1995-08-17" },
    });
    expect(response.status()).toBe(201);
    expect((await response.json()).data).toMatchObject({
      type: "withdrawal_exchange",
      status: "processing",
      sender_currency: "EUR",
      receiver_currency: "BTC",
    });
  });

  test("a testnet address with a broken checksum is still refused", async ({ client }) => {
    await credit(client, "BTC", "0.01");
    const response = await client.post("/withdrawal/crypto", {
      currency: "BTC",
      amount: "0.001",
      address: "tb1qfdxh6gkfr0qgyatnlkd8khcnxph9tw06n6qwjd",
      foreign_id: "broken-1",
      end_user_reference: "user_1",
      sender_type: "legal",
      sender_data: { legal_name: "Example GmbH", country_of_registration: "DEU" },
      receiver_type: "self",
    });
    expect(response.status()).toBe(400);
    expect(await response.json()).toEqual({
      errors: { address: "The address is not a valid Bitcoin address for BTC." },
    });
  });
});

test.describe("sandbox deposit addresses are testnet addresses", () => {
  test("addresses/take hands out each network's testnet format, and payments to them are credited", async ({
    client,
  }) => {
    const expected: Record<string, RegExp> = {
      BTC: /^tb1q[02-9ac-hj-np-z]{38}$/,
      LTC: /^tltc1q[02-9ac-hj-np-z]{38}$/,
      BCH: /^bchtest:q[02-9ac-hj-np-z]{41}$/,
      DOGE: /^n[1-9A-HJ-NP-Za-km-z]{33}$/,
      ETH: /^0x[0-9a-fA-F]{40}$/,
      TRX: /^T[1-9A-HJ-NP-Za-km-z]{33}$/,
    };
    for (const [currency, format] of Object.entries(expected)) {
      // A client that sends every field sends the unused ones as null.
      const response = await client.send(
        "POST",
        "/addresses/take",
        `{"foreign_id": "cust-7", "currency": "${currency}", "convert_to": null}`,
      );
      expect(response.status(), currency).toBe(201);
      const { data } = await response.json();
      expect(data.address, currency).toMatch(format);
      expect(data.convert_to).toBeNull();
    }
    const ltc = (
      await (await client.post("/addresses/take", { foreign_id: "cust-7", currency: "LTC" })).json()
    ).data.address;
    const paid = await client.post("/sandbox/payments", { address: ltc, currency: "LTC", amount: "2" });
    expect((await paid.json()).data.is_recognized).toBe(true);
    await client.post("/sandbox/blocks", { currency: "LTC", count: 6 });
    await expect
      .poll(async () => {
        const accounts = await (await client.post("/accounts/list")).json();
        return accounts.data.find((a: { currency: string }) => a.currency === "LTC").balance;
      })
      .toBe("1.99000000");
  });

  test("an invoice fixed to BTC at creation is paid to a testnet address", async ({ client, request }) => {
    const response = await client.post("/invoices/create", {
      end_user_reference: "cust-8",
      timer: true,
      title: "Order",
      foreign_id: `testnet-${Date.now()}`,
      currency: "EUR",
      amount: 50,
      url_success: "https://shop.example/paid",
      url_failed: "https://shop.example/failed",
      email_user: "buyer@example.com",
      sender_type: "natural",
      sender_data: { first_name: "Ada", last_name: "Lovelace", date_of_birth: "1990-12-10" },
      sender_currency: "BTC",
    });
    expect(response.status()).toBe(201);
    const { data } = await response.json();
    expect(data.sender_currency).toBe("BTC");
    // The hosted checkout shows the customer the address (a testnet one, on the sandbox chain).
    const token = new URL(data.url).pathname.split("/").pop();
    const checkout = await request.get(`/api/checkout/${token}`);
    expect(checkout.status()).toBe(200);
    expect((await checkout.json()).address).toMatch(/^tb1q/);
  });
});

test.describe("amounts in exponent form and optional fields sent as null", () => {
  test("Python's json.dumps(0.00001) is read as 0.00001, as a JSON number and as a string", async ({
    client,
  }) => {
    const address = (
      await (await client.post("/addresses/take", { foreign_id: "py-1", currency: "BTC" })).json()
    ).data.address;
    // Exactly what `json.dumps({"address": a, "currency": "BTC", "amount": 0.00001})` writes.
    const asNumber = await client.send(
      "POST",
      "/sandbox/payments",
      `{"address": "${address}", "currency": "BTC", "amount": 1e-05, "tag": null}`,
    );
    expect(asNumber.status()).toBe(201);
    expect((await asNumber.json()).data).toMatchObject({
      amount: "0.00001000",
      tag: null,
      is_recognized: true,
    });
    const asString = await client.send(
      "POST",
      "/sandbox/payments",
      `{"address": "${address}", "currency": "BTC", "amount": "1e-05"}`,
    );
    expect((await asString.json()).data).toMatchObject({ amount: "0.00001000" });
    // An exact value finer than the currency allows is refused, never rounded.
    const tooFine = await client.send(
      "POST",
      "/sandbox/payments",
      `{"address": "${address}", "currency": "BTC", "amount": 1e-09}`,
    );
    expect(tooFine.status()).toBe(400);
    expect(await tooFine.json()).toEqual({
      errors: { amount: "The amount has more decimal places than the currency allows." },
    });
  });

  test("an invoice with its optional fields null is created as if they were absent", async ({ client }) => {
    const body = JSON.stringify({
      end_user_reference: "cust-9",
      timer: false,
      title: "Order",
      foreign_id: `nulls-${Date.now()}`,
      currency: "EUR",
      amount: 1.2345e1,
      url_success: "https://shop.example/paid",
      url_failed: "https://shop.example/failed",
      email_user: "buyer@example.com",
      sender_type: "natural",
      sender_data: { first_name: "Ada", last_name: "Lovelace", date_of_birth: "1990-12-10", email: null },
      type: null,
      description: null,
      sender_currency: null,
      callback_url: null,
    });
    const response = await client.send("POST", "/invoices/create", body);
    expect(response.status()).toBe(201);
    expect((await response.json()).data).toMatchObject({
      status: "created",
      address: null,
      sender_currency: null,
      amount: "12.34500000",
    });
    // A required field sent as null stays a field error.
    const missing = await client.send(
      "POST",
      "/invoices/create",
      body.replace('"title":"Order"', '"title":null'),
    );
    expect(missing.status()).toBe(400);
    expect(await missing.json()).toEqual({ errors: { title: "The title field must not be null." } });
  });

  test("fiat amounts take 8 fraction digits, exponent forms included", async ({ client }) => {
    await credit(client, "EUR", "100");
    const quote = await client.send(
      "POST",
      "/exchange/calculate",
      '{"sender_currency": "EUR", "receiver_currency": "BTC", "sender_amount": 1.2345678e1}',
    );
    expect(quote.status()).toBe(200);
    expect((await quote.json()).data).toMatchObject({ sender_amount: "12.34567800", sender_currency: "EUR" });
    const tooFine = await client.send(
      "POST",
      "/exchange/calculate",
      '{"sender_currency": "EUR", "receiver_currency": "BTC", "sender_amount": "12.123456789"}',
    );
    expect(tooFine.status()).toBe(400);
  });
});
