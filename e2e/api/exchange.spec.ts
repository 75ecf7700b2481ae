import { createHmac } from "node:crypto";
import { expect, type SignedClient, sandboxCredit, test } from "../fixtures";

// Sandbox prices (lib/rates/rates.ts): BTC 65000 USD, EUR 1.08 USD; the default spread is 0.5%.
// Expected figures are worked out by hand from them in the comments, in minor units of 10^-8: fiat keeps
// 8 fraction digits like crypto (currencies/list precision 8), so conversions round at 10^-8, not the cent.
// BTC→EUR = 65000 × 0.995 / 1.08 = 1616875/27 EUR per BTC; mid 65000 / 1.08 = 1625000/27.

async function fund(client: SignedClient, currency: string, amount: string) {
  await sandboxCredit(client.merchant.merchantId, currency, amount);
}

async function balanceOf(client: SignedClient, currency: string): Promise<string> {
  const accounts = (await (await client.post("/accounts/list")).json()).data as {
    currency: string;
    balance: string;
  }[];
  return accounts.find((a) => a.currency === currency)!.balance;
}

const info = async (client: SignedClient, body: Record<string, unknown>) =>
  (await client.send("GET", "/transactions/info", JSON.stringify(body))).json();

test("currencies/pairs and currencies/rates give the pair shape with the spread-included rate", async ({
  client,
}) => {
  const pairs = await client.post("/currencies/pairs", { currency_from: "BTC", currency_to: "EUR" });
  expect(pairs.status()).toBe(200);
  // 65000 × 0.995 / 1.08 = 59884.259259… (8 digits, rounded down).
  expect((await pairs.json()).data).toEqual([
    {
      currency_from: {
        currency: "BTC",
        type: "crypto",
        min_amount: "0.00010000",
        min_amount_deposit_with_exchange: "0.00010000",
      },
      currency_to: { currency: "EUR", type: "fiat" },
      rate_from: "1",
      rate_to: "59884.25925925",
    },
  ]);
  const all = (await (await client.post("/currencies/pairs", {})).json()).data;
  expect(all.length).toBeGreaterThan(100);
  const rates = await client.post("/currencies/rates", { currency_from: "EUR", currency_to: "BTC" });
  expect((await rates.json()).data).toEqual([
    {
      currency_from: { currency: "EUR", type: "fiat", min_amount: "10.00000000" },
      currency_to: { currency: "BTC", type: "crypto" },
      rate_from: "1",
      rate_to: "0.00001653",
    },
  ]);
  const invalid = await client.post("/currencies/pairs", { currency_from: "NOPE" });
  expect(invalid.status()).toBe(400);
  expect(await invalid.json()).toEqual({
    errors: { currency_from: "The selected currency from is invalid." },
  });
});

test("calculate then exchange/fixed at that price: debited at once, credited and confirmed with a signed exchange callback", async ({
  client,
  receiver,
}) => {
  await fund(client, "BTC", "0.5");
  const calculated = await client.post("/exchange/calculate", {
    sender_currency: "BTC",
    receiver_currency: "EUR",
    sender_amount: "0.01",
  });
  expect(calculated.status()).toBe(200);
  const quote = (await calculated.json()).data;
  // 0.01 BTC = 1000000 units: 1000000 × 1616875 / 27 = 59884259259 rem 7 → 598.84259259 EUR (down);
  // mid 1000000 × 1625000 / 27 = 60185185185 rem 5; fee 60185185185 − 59884259259 = 3.00925926 EUR.
  expect(quote).toMatchObject({
    sender_amount: "0.01000000",
    sender_currency: "BTC",
    receiver_amount: "598.84259259",
    receiver_currency: "EUR",
    fee_amount: "3.00925926",
    fee_currency: "EUR",
    price: "59884.25925925",
    fix_period: 60,
  });
  expect(quote.ts_release - quote.ts_fixed).toBe(60);

  const foreignId = `swap-${Date.now()}`;
  const fixed = await client.post("/exchange/fixed", {
    sender_currency: "BTC",
    receiver_currency: "EUR",
    sender_amount: "0.01",
    price: quote.price,
    foreign_id: foreignId,
  });
  expect(fixed.status()).toBe(201);
  const exchange = (await fixed.json()).data;
  expect(exchange).toEqual({
    id: expect.any(Number),
    foreign_id: foreignId,
    type: "exchange",
    sender_amount: "0.01000000",
    sender_currency: "BTC",
    receiver_amount: "598.84259259",
    receiver_currency: "EUR",
    fee_amount: "3.00925926",
    fee_currency: "EUR",
    price: "59884.25925925",
    status: "processing",
  });
  expect(await balanceOf(client, "BTC")).toBe("0.49000000");

  await expect.poll(() => receiver.received.length, { timeout: 15_000 }).toBe(1);
  const [callback] = receiver.received;
  expect(callback!.headers["x-processing-signature"]).toBe(
    createHmac("sha512", client.merchant.apiSecret).update(callback!.body).digest("hex"),
  );
  expect(JSON.parse(callback!.body.toString())).toMatchObject({
    id: exchange.id,
    foreign_id: foreignId,
    type: "exchange",
    status: "confirmed",
    currency_sent: { currency: "BTC", amount: "0.01000000" },
    currency_received: { currency: "EUR", amount: "598.84259259" },
    fees: [{ type: "exchange", currency: "EUR", amount: "3.00925926" }],
  });
  expect(await balanceOf(client, "EUR")).toBe("598.84259259");
  const byForeignId = await info(client, { foreign_id: foreignId });
  expect(byForeignId).toMatchObject({ id: exchange.id, type: "exchange", status: "confirmed" });
  expect(await info(client, { id: exchange.id })).toEqual(byForeignId);

  // The quote was executed: the same price again is a field error on price.
  const again = await client.post("/exchange/fixed", {
    sender_currency: "BTC",
    receiver_currency: "EUR",
    sender_amount: "0.01",
    price: quote.price,
    foreign_id: `${foreignId}-again`,
  });
  expect(again.status()).toBe(400);
  expect((await again.json()).errors.price).toContain(`already used by exchange ${exchange.id}`);
});

test("exchange/now from receiver_amount, and the 400s of a client's mistakes", async ({ client }) => {
  await fund(client, "EUR", "100");
  const now = await client.post("/exchange/now", {
    sender_currency: "EUR",
    receiver_currency: "BTC",
    receiver_amount: "0.001",
    foreign_id: `now-${Date.now()}`,
  });
  expect(now.status()).toBe(201);
  // 0.001 BTC = 100000 units × 65000 / (1.08 × 0.995) = 100000 × 325000000 / 5373 = 6048762330 rem 910
  // → 60.48762331 EUR (rounded up at 10^-8: the merchant pays the remainder); 100 − 60.48762331 = 39.51237669.
  expect((await now.json()).data).toMatchObject({
    type: "exchange",
    sender_amount: "60.48762331",
    receiver_amount: "0.00100000",
    status: "processing",
  });
  expect(await balanceOf(client, "EUR")).toBe("39.51237669");

  const tooMuch = await client.post("/exchange/now", {
    sender_currency: "EUR",
    receiver_currency: "BTC",
    sender_amount: "50",
    foreign_id: `now-${Date.now()}-2`,
  });
  expect(tooMuch.status()).toBe(400);
  expect(await tooMuch.json()).toEqual({
    errors: { sender_amount: "Insufficient funds: this exchange needs 50 EUR from your balance." },
  });
  expect(await balanceOf(client, "EUR")).toBe("39.51237669");

  const unknownPrice = await client.post("/exchange/fixed", {
    sender_currency: "EUR",
    receiver_currency: "BTC",
    sender_amount: "20",
    price: "0.00001",
    foreign_id: `fixed-${Date.now()}`,
  });
  expect(unknownPrice.status()).toBe(400);
  expect((await unknownPrice.json()).errors.price).toContain("No quote from exchange/calculate");

  const sameCurrency = await client.post("/exchange/calculate", {
    sender_currency: "EUR",
    receiver_currency: "EUR",
    sender_amount: "20",
  });
  expect(sameCurrency.status()).toBe(400);
  expect(await sameCurrency.json()).toEqual({
    errors: { sender_currency: "Exchange is unavailable for given currencies" },
  });

  const both = await client.post("/exchange/calculate", {
    sender_currency: "EUR",
    receiver_currency: "BTC",
    sender_amount: "20",
    receiver_amount: "0.001",
  });
  expect(both.status()).toBe(400);
});
