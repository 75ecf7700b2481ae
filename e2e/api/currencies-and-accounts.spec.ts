import { cliProcess, expect, sandboxCredit, test } from "../fixtures";

test("currencies/list describes the registry with limits, fees and tag rules", async ({ client }) => {
  const response = await client.post("/currencies/list");
  expect(response.status()).toBe(200);
  const { data } = await response.json();
  const codes = data.map((c: { currency: string }) => c.currency);
  for (const code of [
    "BTC",
    "LTC",
    "BCH",
    "DOGE",
    "ETH",
    "USDTE",
    "USDTT",
    "USDC",
    "TRX",
    "XRP",
    "EUR",
    "USD",
  ]) {
    expect(codes).toContain(code);
  }
  const btc = data.find((c: { currency: string }) => c.currency === "BTC");
  expect(btc).toMatchObject({
    id: 1,
    type: "crypto",
    precision: 8,
    minimum_amount: expect.stringMatching(/^\d+\.\d{8}$/),
    minimum_withdrawal_amount: expect.stringMatching(/^\d+\.\d{8}$/),
    deposit_fee_percent: expect.any(String),
    withdrawal_fee_percent: expect.any(String),
    confirmations_required: 2,
    tag_supported: false,
  });
  expect(data.find((c: { currency: string }) => c.currency === "XRP")).toMatchObject({
    tag_supported: true,
    tag_required: true,
    tag_name: "destination tag",
  });
  // Fiat has 8 fraction digits, as the public API's sandbox reports it, and amounts are accepted so.
  expect(data.find((c: { currency: string }) => c.currency === "EUR")).toMatchObject({
    type: "fiat",
    precision: 8,
  });
});

test("currencies/list with visible: false lists what is not offered: nothing on the sandbox chain", async ({
  client,
}) => {
  const hidden = await client.send("POST", "/currencies/list", '{"visible":false}');
  expect(hidden.status()).toBe(200);
  // This server has no real adapter, so the sandbox chain carries every network of the registry.
  expect(await hidden.json()).toEqual({ data: [] });
  // visible: null is an absent visible: the offered currencies.
  const asNull = await (await client.send("POST", "/currencies/list", '{"visible":null}')).json();
  const asTrue = await (await client.send("POST", "/currencies/list", '{"visible":true}')).json();
  expect(asNull).toEqual(asTrue);
  expect(asTrue.data).toHaveLength(12);
});

test("accounts/list shows every currency and credited balances as 8-digit strings", async ({ client }) => {
  await sandboxCredit(client.merchant.merchantId, "USD", "0.12345678");
  await sandboxCredit(client.merchant.merchantId, "EUR", "12.34");
  await sandboxCredit(client.merchant.merchantId, "EUR", "0.66");
  const { data } = await (await client.post("/accounts/list")).json();
  expect(data).toHaveLength(12);
  expect(data.find((a: { currency: string }) => a.currency === "EUR")).toEqual({
    currency: "EUR",
    type: "fiat",
    balance: "13.00000000",
  });
  expect(data.find((a: { currency: string }) => a.currency === "USD")).toEqual({
    currency: "USD",
    type: "fiat",
    balance: "0.12345678",
  });
  expect(data.find((a: { currency: string }) => a.currency === "DOGE")).toEqual({
    currency: "DOGE",
    type: "crypto",
    balance: "0.00000000",
  });
});

test("the CLI refuses amounts finer than the currency's precision", async ({ client }) => {
  await expect(
    cliProcess(
      "sandbox",
      "credit",
      "--merchant",
      String(client.merchant.merchantId),
      "--currency",
      "EUR",
      "--amount",
      "1.000000001",
    ),
  ).rejects.toMatchObject({ stdout: expect.stringContaining("decimal places") });
});

test("the OpenAPI document is generated from the request schemas", async ({ request }) => {
  const response = await request.get("/api/v2/openapi.json");
  expect(response.status()).toBe(200);
  const document = await response.json();
  expect(document.openapi).toBe("3.1.0");
  expect(Object.keys(document.paths)).toEqual(
    expect.arrayContaining(["/ping", "/currencies/list", "/accounts/list"]),
  );
  const accounts = document.paths["/accounts/list"].post;
  expect(accounts.responses["403"]).toBeDefined();
  expect(accounts.responses["200"].content["application/json"].schema.properties.data.items.$ref).toBe(
    "#/components/schemas/Account",
  );
  expect(document.components.schemas.Account.properties.balance.pattern).toBe("^-?\\d+\\.\\d{8}$");
});
