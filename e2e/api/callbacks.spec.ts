import { createHmac } from "node:crypto";
import { request as playwrightRequest } from "@playwright/test";
import { shortTimer } from "../../playwright.config";
import { checkPublicShape, PUBLIC_ROOT_KEYS } from "../../tests/support/public-invoice-callback";
import { startReceiver } from "../../tests/support/receiver";
import {
  createMerchant,
  expect,
  projectBaseURL,
  type Receiver,
  type SignedClient,
  setCallbackUrl,
  signedClient,
  test,
} from "../fixtures";

/** A wire amount ("12.50000000") in 10^-8 units and back: money is compared exactly, never as floats. */
const units = (amount: string) => BigInt(amount.replace(".", ""));
const decimal = (value: bigint) => `${value / 10n ** 8n}.${String(value % 10n ** 8n).padStart(8, "0")}`;

const invoiceRequest = (overrides: Record<string, unknown> = {}) => ({
  end_user_reference: "cb-customer",
  timer: false,
  title: "Callback test",
  foreign_id: `cb-${Date.now()}-${Math.random().toString(36).slice(2)}`,
  currency: "EUR",
  amount: "50",
  url_success: "https://shop.example/ok",
  url_failed: "https://shop.example/failed",
  email_user: "buyer@example.com",
  sender_type: "natural",
  sender_data: { first_name: "Ada", last_name: "Lovelace", date_of_birth: "1990-12-10" },
  ...overrides,
});

/**
 * The invoice callbacks the receiver got, each checked: signed with the merchant's secret over the
 * exact bytes, and in the public API's invoice callback shape, key by key.
 */
function invoiceCallbacks(receiver: Receiver, client: SignedClient, id: number) {
  return receiver.received
    .map((r) => ({ ...r, json: JSON.parse(r.body.toString()) }))
    .filter((r) => r.json.id === id)
    .map((r) => {
      expect(r.headers["x-processing-key"]).toBe(client.merchant.apiKey);
      expect(r.headers["x-processing-signature"]).toBe(
        createHmac("sha512", client.merchant.apiSecret).update(r.body).digest("hex"),
      );
      const { issues, keys, data } = checkPublicShape(r.body.toString());
      expect(issues).toEqual([]);
      expect(keys).toEqual(PUBLIC_ROOT_KEYS);
      return { event: String(r.headers["x-kassa-event"]), body: data };
    });
}

/** The customer fixes the pay currency on the checkout, as the hosted page does. */
async function fixCurrency(input: { baseURL: string; url: string; currency: string }) {
  const { baseURL, url, currency } = input;
  const api = await playwrightRequest.newContext({ baseURL });
  const fixed = await (
    await api.post(`/api/checkout/${url.split("/pay/")[1]}/currency`, { data: { currency } })
  ).json();
  await api.dispose();
  expect(fixed).toMatchObject({ status: "pending", sender_currency: currency });
  return fixed as { address: string; sender_amount: string };
}

test("the running server delivers signed callbacks for an invoice's progress, and resends on request", async ({
  client,
  request,
  receiver,
}) => {
  const created = await client.post("/invoices/create", {
    end_user_reference: "cb-1",
    timer: false,
    title: "Callback test",
    foreign_id: `cb-${Date.now()}`,
    currency: "BTC",
    amount: "0.001",
    url_success: "https://shop.example/ok",
    url_failed: "https://shop.example/failed",
    email_user: "buyer@example.com",
    sender_type: "natural",
    sender_data: { first_name: "Ada", last_name: "Lovelace", date_of_birth: "1990-12-10" },
  });
  const { id, url } = (await created.json()).data;
  const token = url.split("/pay/")[1];
  await request.post(`/api/checkout/${token}/currency`, { data: { currency: "BTC" } });

  await expect.poll(() => receiver.received.length, { timeout: 10_000 }).toBe(1);
  const [first] = receiver.received;
  expect(first!.headers["x-processing-key"]).toBe(client.merchant.apiKey);
  expect(first!.headers["x-processing-signature"]).toBe(
    createHmac("sha512", client.merchant.apiSecret).update(first!.body).digest("hex"),
  );
  expect(JSON.parse(first!.body.toString())).toMatchObject({ id, type: "invoice", status: "pending" });

  const resent = await client.post("/callbacks/resend", { id });
  expect(resent.status()).toBe(201);
  await expect.poll(() => receiver.received.length, { timeout: 10_000 }).toBe(2);
  expect(receiver.received[1]!.body.equals(first!.body)).toBe(true);
  expect(receiver.received[1]!.headers["x-kassa-redelivery-of"]).toBe(first!.headers["x-kassa-callback-id"]);
});

test.describe("invoice callbacks against the production server, captured by a real receiver", () => {
  test("pending, processing and confirmed carry the invoice's own status, its deadlines and its amounts", async ({
    client,
    receiver,
  }) => {
    const { id, url } = (await (await client.post("/invoices/create", invoiceRequest())).json()).data;
    const fixed = await fixCurrency({ baseURL: projectBaseURL(), url, currency: "BTC" });
    await expect.poll(() => invoiceCallbacks(receiver, client, id).length, { timeout: 10_000 }).toBe(1);

    const paid = await client.post("/sandbox/payments", {
      address: fixed.address,
      currency: "BTC",
      amount: fixed.sender_amount,
    });
    expect(paid.status()).toBe(201);
    // The second callback, whether or not another test's BTC blocks confirmed the payment meanwhile
    // (then the third is already on its way too).
    await expect
      .poll(() => invoiceCallbacks(receiver, client, id)[1]?.event, { timeout: 10_000 })
      .toBe("invoice.processing");
    expect((await client.post("/sandbox/blocks", { currency: "BTC", count: 2 })).status()).toBe(201);
    await expect.poll(() => invoiceCallbacks(receiver, client, id).length, { timeout: 15_000 }).toBe(3);

    const [pending, processing, confirmed] = invoiceCallbacks(receiver, client, id);
    expect([pending!.event, processing!.event, confirmed!.event]).toEqual([
      "invoice.pending",
      "invoice.processing",
      "invoice.confirmed",
    ]);
    expect(pending!.body).toMatchObject({
      status: "pending",
      error: "",
      crypto_address: { currency: "BTC", convert_to: "EUR", address: fixed.address, tag: null },
      currency_sent: { currency: "BTC", amount: fixed.sender_amount, remaining_amount: fixed.sender_amount },
      currency_received: { currency: "EUR", amount: "50.00000000", amount_minus_fee: "49.75000000" },
      transactions: [],
      fees: [],
      expires_at: null, // no timer, no deadline
    });
    const { txid } = (await paid.json()).data;
    expect(processing!.body).toMatchObject({
      status: "processing",
      currency_sent: { remaining_amount: "0.00000000" },
      transactions: [
        { transaction_type: "blockchain", txid, amount: fixed.sender_amount, confirmations: "0" },
      ],
    });
    // While an exact payment confirms, the invoice amount, as the public API's callbacks show.
    expect(processing!.body.currency_received).toEqual({
      currency: "EUR",
      amount: "50.00000000",
      amount_minus_fee: "49.75000000",
    });
    // The 24-hour processing deadline, as the public API's timer.
    expect(processing!.body.expires_at! - processing!.body.fixed_at).toBeGreaterThanOrEqual(24 * 3600);
    expect(confirmed!.body).toMatchObject({
      status: "confirmed",
      error: "",
      currency_received: { currency: "EUR" },
      fees: [{ type: "fee_crypto_deposit", currency: "EUR" }],
      fixed_at: pending!.body.fixed_at,
    });
    // Once credited, what the ledger booked: at least the invoice amount (the amount asked was rounded up).
    const { currency_received: received, fees } = confirmed!.body;
    expect(units(received.amount) >= units("50.00000000")).toBe(true);
    expect(decimal(units(received.amount) - units(fees[0]!.amount))).toBe(received.amount_minus_fee);
  });

  test("opening the checkout of an invoice whose coin the merchant chose queues its pending callback", async ({
    client,
    receiver,
  }) => {
    // The page itself fixes the currency and hands out the address: a status change made while a
    // page renders, in the pages' own copy of the engine, with its callback.
    const created = await client.post("/invoices/create", invoiceRequest({ sender_currency: "LTC" }));
    const { id, url } = (await created.json()).data;
    const page = await fetch(`${projectBaseURL()}/pay/${url.split("/pay/")[1]}`);
    expect(page.status).toBe(200);
    await expect
      .poll(() => invoiceCallbacks(receiver, client, id).map((c) => c.event))
      .toEqual(["invoice.pending"]);
    const [pending] = invoiceCallbacks(receiver, client, id);
    expect(pending!.body).toMatchObject({ id, status: "pending" });
    expect(pending!.body.crypto_address).toMatchObject({ currency: "LTC" });
  });

  test("a payment credited after the merchant cancelled the invoice is reported too", async ({
    client,
    receiver,
  }) => {
    const payload = invoiceRequest();
    const { id, url } = (await (await client.post("/invoices/create", payload)).json()).data;
    const fixed = await fixCurrency({ baseURL: projectBaseURL(), url, currency: "LTC" });
    expect((await client.post(`/invoices/${payload.foreign_id}/cancel`)).status()).toBe(200);
    await client.post("/sandbox/payments", {
      address: fixed.address,
      currency: "LTC",
      amount: fixed.sender_amount,
    });
    await client.post("/sandbox/blocks", { currency: "LTC", count: 6 });
    await expect.poll(() => invoiceCallbacks(receiver, client, id).length, { timeout: 15_000 }).toBe(3);
    const all = invoiceCallbacks(receiver, client, id);
    expect(all.map((c) => [c.event, c.body.status])).toEqual([
      ["invoice.pending", "pending"],
      ["invoice.cancelled", "cancelled"],
      ["invoice.late_payment", "cancelled"],
    ]);
    expect(all[2]!.body).toMatchObject({
      error: "Cancelled by the merchant.",
      transactions: [
        expect.objectContaining({ transaction_type: "blockchain", amount: fixed.sender_amount }),
        // The late payment converted to the invoice currency: what the merchant received before the fee.
        expect.objectContaining({
          transaction_type: "exchange",
          amount: fixed.sender_amount,
          amount_to: all[2]!.body.currency_received.amount,
        }),
      ],
      fees: [expect.objectContaining({ type: "fee_crypto_deposit" })],
    });
  });

  test("an underpaid fill_or_kill invoice fails when its timer runs out, with the public text", async () => {
    const api = await playwrightRequest.newContext({ baseURL: shortTimer.baseURL });
    const client = signedClient(api, await createMerchant("Short Timer Hooks", shortTimer.dataDir));
    // This merchant lives on the short-timer server: its own receiver, set through that server's CLI.
    const receiver = await startReceiver();
    try {
      await setCallbackUrl(client.merchant, receiver.url(), shortTimer.dataDir);
      const { id, url } = (
        await (await client.post("/invoices/create", invoiceRequest({ timer: true }))).json()
      ).data;
      const fixed = await fixCurrency({ baseURL: shortTimer.baseURL, url, currency: "LTC" });
      const half = decimal(units(fixed.sender_amount) / 2n);
      await client.post("/sandbox/payments", { address: fixed.address, currency: "LTC", amount: half });
      await client.post("/sandbox/blocks", { currency: "LTC", count: 6 });
      // Credited and still open for the rest until the deadline...
      await expect
        .poll(() => invoiceCallbacks(receiver, client, id).map((c) => c.event), { timeout: 10_000 })
        .toEqual(["invoice.pending", "invoice.processing", "invoice.pending"]);
      // ...then failed by the timer (8 seconds on this server).
      await expect
        .poll(() => invoiceCallbacks(receiver, client, id).at(-1)?.event, { timeout: 20_000 })
        .toBe("invoice.failed");
      const failed = invoiceCallbacks(receiver, client, id).at(-1)!.body;
      expect(failed).toMatchObject({
        status: "failed",
        error: "Timer expired. User paid less than requested.",
        currency_sent: { currency: "LTC", amount: fixed.sender_amount },
        transactions: [
          expect.objectContaining({ transaction_type: "blockchain", amount: half }),
          expect.objectContaining({ transaction_type: "exchange", amount: half }),
        ],
        fees: [expect.objectContaining({ type: "fee_crypto_deposit" })],
      });
      expect(failed.currency_sent.remaining_amount).toBe(decimal(units(fixed.sender_amount) - units(half)));
      expect(failed.expires_at! - failed.fixed_at).toBe(shortTimer.seconds);
    } finally {
      await receiver.close();
      await api.dispose();
    }
  });
});
