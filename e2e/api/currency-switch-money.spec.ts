import { createHmac } from "node:crypto";
import { expect, type Receiver, type SignedClient, test } from "../fixtures";

/**
 * "Pay with another currency" in figures, against the production server: the customer chooses BTC,
 * switches to LTC, pays a third of the BTC price to the BTC address (sent from the page shown first)
 * and the rest to the LTC address. transactions/info, the confirmed callback the real receiver gets
 * and the merchant's balance must pair each coin with its own converted value and add up. Expected
 * figures come from the sandbox's default USD prices (BTC 65000, LTC 80, EUR 1.08), the 0.5% spread
 * and the 0.5% deposit fee, computed here in 10^-8 units.
 */
const USD = { EUR: 108_000_000n, BTC: 6_500_000_000_000n, LTC: 8_000_000_000n };
type Coin = keyof typeof USD;

/** A wire amount ("12.50000000") in 10^-8 units and back: money is compared exactly, never as floats. */
const units = (amount: string) => BigInt(amount.replace(".", ""));
const decimal = (value: bigint) => `${value / 10n ** 8n}.${String(value % 10n ** 8n).padStart(8, "0")}`;
const divideUp = (a: bigint, b: bigint) => (a + b - 1n) / b;
/** What `amount` of `to` costs in `from`, the spread taken, rounded up. */
const costIn = (amount: bigint, to: Coin, from: Coin) =>
  divideUp(amount * USD[to] * 1_000n, USD[from] * 995n);
/** What `amount` of `from` brings in `to`, less the spread, rounded down. */
const worthOf = (amount: bigint, from: Coin, to: Coin) => (amount * USD[from] * 995n) / (USD[to] * 1_000n);
const feeOf = (gross: bigint) => divideUp(gross * 5n, 1_000n);

/** The signed invoice callbacks the receiver got for invoice `id`, in order. */
function invoiceCallbacks(receiver: Receiver, client: SignedClient, id: number) {
  return receiver.received
    .map((r) => ({ ...r, json: JSON.parse(r.body.toString()) }))
    .filter((r) => r.json.id === id)
    .map((r) => {
      expect(r.headers["x-processing-signature"]).toBe(
        createHmac("sha512", client.merchant.apiSecret).update(r.body).digest("hex"),
      );
      return { event: String(r.headers["x-kassa-event"]), body: r.json };
    });
}

test("an invoice paid partly in the coin shown before a switch pairs each coin with its own value", async ({
  client,
  request,
  receiver,
}) => {
  const eurBalance = async () =>
    units(
      (await (await client.post("/accounts/list")).json()).data.find(
        (a: { currency: string }) => a.currency === "EUR",
      )?.balance ?? "0.00000000",
    );
  const info = async (id: number) => {
    const response = await client.post("/transactions/info", { id });
    expect(response.status()).toBe(200);
    return response.json();
  };
  const before = await eurBalance();
  const created = await client.post("/invoices/create", {
    end_user_reference: "two-coins",
    timer: true,
    type: "good_until_expired",
    title: "Two coins",
    foreign_id: `two-coins-${Date.now()}`,
    currency: "EUR",
    amount: "100",
    url_success: "https://shop.example/ok",
    url_failed: "https://shop.example/failed",
    email_user: "buyer@example.com",
    sender_type: "natural",
    sender_data: { first_name: "Ada", last_name: "Lovelace", date_of_birth: "1990-12-10" },
  });
  expect(created.status()).toBe(201);
  const { id, url } = (await created.json()).data;
  const token = url.split("/pay/")[1];
  const choose = async (currency: string) => {
    const response = await request.post(`/api/checkout/${token}/currency`, { data: { currency } });
    expect(response.status()).toBe(200);
    return (await response.json()) as { address: string; sender_amount: string };
  };
  const btc = await choose("BTC");
  expect(units(btc.sender_amount)).toBe(costIn(100n * 10n ** 8n, "EUR", "BTC"));
  const ltc = await choose("LTC");

  const btcPaid = units(btc.sender_amount) / 3n;
  const btcGross = worthOf(btcPaid, "BTC", "EUR");
  expect(
    (
      await client.post("/sandbox/payments", {
        address: btc.address,
        currency: "BTC",
        amount: decimal(btcPaid),
      })
    ).status(),
  ).toBe(201);
  expect((await client.post("/sandbox/blocks", { currency: "BTC", count: 2 })).status()).toBe(201);
  // Credited, the invoice asks the rest in LTC, at the current price.
  await expect
    .poll(async () => (await info(id)).additional_details.status_reason, { timeout: 15_000 })
    .toBe("awaiting_remainder");
  const ltcDue = costIn(100n * 10n ** 8n - btcGross, "EUR", "LTC");
  const owing = await info(id);
  expect(owing.currency_sent).toMatchObject({ currency: "LTC", remaining_amount: decimal(ltcDue) });
  expect(owing.additional_details.remaining_amount).toBe(decimal(ltcDue));

  expect(
    (
      await client.post("/sandbox/payments", {
        address: ltc.address,
        currency: "LTC",
        amount: decimal(ltcDue),
      })
    ).status(),
  ).toBe(201);
  expect((await client.post("/sandbox/blocks", { currency: "LTC", count: 6 })).status()).toBe(201);
  await expect
    .poll(() => invoiceCallbacks(receiver, client, id).some((c) => c.event === "invoice.confirmed"), {
      timeout: 15_000,
    })
    .toBe(true);

  const ltcGross = worthOf(ltcDue, "LTC", "EUR");
  const gross = btcGross + ltcGross;
  const fee = feeOf(btcGross) + feeOf(ltcGross);
  const exchanges = [
    { currency: "BTC", amount: decimal(btcPaid), amount_to: decimal(btcGross) },
    { currency: "LTC", amount: decimal(ltcDue), amount_to: decimal(ltcGross) },
  ].map((entry) => ({ id, ...entry, currency_to: "EUR", transaction_type: "exchange", type: "exchange" }));
  const received = { currency: "EUR", amount: decimal(gross), amount_minus_fee: decimal(gross - fee) };

  const confirmed = invoiceCallbacks(receiver, client, id).find((c) => c.event === "invoice.confirmed")!;
  const settled = await info(id);
  for (const face of [confirmed.body, settled]) {
    expect(
      face.transactions.filter((t: { transaction_type: string }) => t.transaction_type === "exchange"),
    ).toEqual(exchanges);
    expect(face.currency_received).toEqual(received);
    expect(face.fees).toEqual([{ type: "fee_crypto_deposit", currency: "EUR", amount: decimal(fee) }]);
  }
  expect(settled.status).toBe("confirmed");
  // The merchant's balance grew by both conversions less both fees, not a unit more or less.
  expect((await eurBalance()) - before).toBe(gross - fee);
});
