import type { APIRequestContext } from "@playwright/test";
import { expect, type SignedClient } from "./fixtures";

/**
 * "Pay with another currency" set up through the public API and the checkout, and its figures computed
 * independently from the sandbox's default USD prices (BTC 65000, LTC 80, EUR 1.08), the 0.5% spread
 * and the 0.5% deposit fee, in 10^-8 units: never read back from the page or the API under test.
 */
const USD = { EUR: 108_000_000n, BTC: 6_500_000_000_000n, LTC: 8_000_000_000n };
type Coin = keyof typeof USD;

/** A wire amount ("12.5", "12.50000000") in 10^-8 units and back: money is compared exactly, never as floats. */
export const units = (amount: string) => {
  const [whole, fraction = ""] = amount.split(".");
  return BigInt(whole!) * 100_000_000n + BigInt(fraction.padEnd(8, "0"));
};
export const decimal = (value: bigint) =>
  `${value / 10n ** 8n}.${String(value % 10n ** 8n).padStart(8, "0")}`;
const divideUp = (a: bigint, b: bigint) => (a + b - 1n) / b;
/** What `amount` of `to` costs in `from`, the spread taken, rounded up. */
export const costIn = (amount: bigint, to: Coin, from: Coin) =>
  divideUp(amount * USD[to] * 1_000n, USD[from] * 995n);
/** What `amount` of `from` brings in `to`, less the spread, rounded down. */
export const worthOf = (amount: bigint, from: Coin, to: Coin) =>
  (amount * USD[from] * 995n) / (USD[to] * 1_000n);
export const feeOf = (gross: bigint) => divideUp(gross * 5n, 1_000n);

/** The invoice's amount: 100 EUR. */
export const INVOICED = 100n * 10n ** 8n;

/**
 * A 100 EUR invoice whose customer chose BTC, switched to LTC, and paid a third of the BTC price to
 * the BTC address, credited: the invoice now awaits the rest in LTC.
 */
export async function switchedAndPaidInBtc(
  client: SignedClient,
  request: APIRequestContext,
  input: { title: string; foreignId: string },
) {
  const info = async (id: number) => {
    const response = await client.post("/transactions/info", { id });
    expect(response.status()).toBe(200);
    return response.json();
  };
  const created = await client.post("/invoices/create", {
    end_user_reference: input.foreignId,
    timer: true,
    type: "good_until_expired",
    title: input.title,
    foreign_id: `${input.foreignId}-${Date.now()}`,
    currency: "EUR",
    amount: "100",
    url_success: "https://shop.example/ok",
    url_failed: "https://shop.example/failed",
    email_user: "buyer@example.com",
    sender_type: "natural",
    sender_data: { first_name: "Ada", last_name: "Lovelace", date_of_birth: "1990-12-10" },
  });
  expect(created.status()).toBe(201);
  const { id, url } = (await created.json()).data as { id: number; url: string };
  const token = url.split("/pay/")[1];
  const choose = async (currency: string) => {
    const response = await request.post(`/api/checkout/${token}/currency`, { data: { currency } });
    expect(response.status()).toBe(200);
    return (await response.json()) as { address: string; sender_amount: string };
  };
  const btc = await choose("BTC");
  const ltc = await choose("LTC");

  const btcPaid = units(btc.sender_amount) / 3n;
  const sent = await client.post("/sandbox/payments", {
    address: btc.address,
    currency: "BTC",
    amount: decimal(btcPaid),
  });
  expect(sent.status()).toBe(201);
  expect((await client.post("/sandbox/blocks", { currency: "BTC", count: 2 })).status()).toBe(201);
  // Credited, the invoice asks the rest in LTC.
  await expect
    .poll(async () => (await info(id)).additional_details.status_reason, { timeout: 15_000 })
    .toBe("awaiting_remainder");
  return { id, info, btc, ltc, btcPaid, btcGross: worthOf(btcPaid, "BTC", "EUR") };
}
