import { cli, expect, type Receiver, type SignedClient, test } from "../fixtures";

const customer = {
  sender_type: "natural",
  sender_data: { first_name: "Ada", last_name: "Lovelace", date_of_birth: "1990-12-10" },
};

async function take(client: SignedClient, payload: Record<string, unknown>) {
  const response = await client.post("/addresses/take", payload);
  expect(response.status()).toBe(201);
  return (await response.json()).data;
}

/**
 * The callbacks this test's merchant was sent, each once: delivery is at least once (a retry after a
 * slow answer repeats a callback under the same X-Kassa-Callback-Id, which is how merchants dedupe),
 * so a retry under load is not a second callback.
 */
const bodies = (receiver: Receiver) => {
  const seen = new Set<unknown>();
  return receiver.received
    .filter((r) => {
      const id = r.headers["x-kassa-callback-id"];
      if (seen.has(id)) return false;
      seen.add(id);
      return true;
    })
    .map((r) => ({ event: r.headers["x-kassa-event"], body: JSON.parse(r.body.toString()) }));
};

test("addresses/take answers end_user_reference, and the deposit callbacks carry it", async ({
  client,
  receiver,
}) => {
  const address = await take(client, {
    foreign_id: "wallet-1",
    currency: "LTC",
    end_user_reference: "user-1",
    ...customer,
  });
  expect(address).toMatchObject({ foreign_id: "wallet-1", end_user_reference: "user-1", convert_to: null });
  const plain = await take(client, { foreign_id: "wallet-2", currency: "LTC" });
  expect(plain.end_user_reference).toBeNull();

  await client.post("/sandbox/payments", { address: address.address, currency: "LTC", amount: "0.5" });
  await client.post("/sandbox/blocks", { currency: "LTC", count: 6 });
  await expect
    .poll(() => bodies(receiver).map((b) => `${b.event} ${b.body.status}`), { timeout: 15_000 })
    .toHaveLength(2);
  const [seen, confirmed] = bodies(receiver);
  expect(seen).toMatchObject({
    event: "deposit.processing",
    body: { type: "deposit", status: "not_confirmed", end_user_reference: "user-1" },
  });
  expect(confirmed).toMatchObject({
    event: "deposit.confirmed",
    body: {
      type: "deposit",
      status: "confirmed",
      end_user_reference: "user-1",
      crypto_address: { foreign_id: "wallet-1", address: address.address },
      currency_received: { currency: "LTC", amount: "0.50000000", amount_minus_fee: "0.49750000" },
    },
  });
});

test("a converting deposit's not_confirmed callback carries currency_received", async ({
  client,
  receiver,
}) => {
  const address = await take(client, { foreign_id: "wallet-3", currency: "BTC", convert_to: "EUR" });
  expect(address.convert_to).toBe("EUR");
  await client.post("/sandbox/payments", { address: address.address, currency: "BTC", amount: "0.01" });
  // The first callback, whether or not another test's BTC blocks confirmed the payment meanwhile.
  await expect.poll(() => bodies(receiver)[0]?.event, { timeout: 15_000 }).toBe("deposit.processing");
  const [seen] = bodies(receiver);
  expect(seen).toMatchObject({
    event: "deposit.processing",
    body: {
      type: "deposit_exchange",
      status: "not_confirmed",
      currency_sent: { currency: "BTC", amount: "0.01000000" },
      currency_received: { currency: "EUR" },
    },
  });
  // What the confirmation credits is what was announced: the rate was fixed when the payment was seen.
  await client.post("/sandbox/blocks", { currency: "BTC", count: 2 });
  await expect
    .poll(() => bodies(receiver).map((b) => `${b.event} ${b.body.status}`), { timeout: 15_000 })
    .toHaveLength(2);
  const [, confirmed] = bodies(receiver);
  expect(confirmed!.body.currency_received).toEqual(seen!.body.currency_received);
  expect(Number(seen!.body.currency_received.amount)).toBeGreaterThan(0);
});

test("a deposit below the minimum is held, shown, and announced only when the merchant turned that callback on", async ({
  client,
  receiver,
}) => {
  const currencies = (await (await client.post("/currencies/list")).json()).data;
  const minimum = currencies.find((c: { currency: string }) => c.currency === "BTC").minimum_amount;
  expect(minimum).toBe("0.00010000");
  const address = await take(client, {
    foreign_id: "wallet-4",
    currency: "BTC",
    end_user_reference: "user-4",
    ...customer,
  });

  // The callbacks about one payment, by its amount. Other tests mine BTC blocks on the same sandbox chain
  // at any moment, so the 0.001 BTC payment may confirm before this test mines: count per payment, not in total.
  const about = (amount: string) => bodies(receiver).filter((b) => b.body.currency_sent?.amount === amount);
  const events = (amount: string) => about(amount).map((b) => `${b.event} ${b.body.status}`);

  // Off by default: the small deposit is held without a word, the normal one after it is announced.
  const quiet = await client.post("/sandbox/payments", {
    address: address.address,
    currency: "BTC",
    amount: "0.00005",
  });
  expect((await quiet.json()).data.is_recognized).toBe(true);
  await client.post("/sandbox/payments", { address: address.address, currency: "BTC", amount: "0.001" });
  await expect
    .poll(() => events("0.00100000")[0], { timeout: 15_000 })
    .toBe("deposit.processing not_confirmed");
  expect(events("0.00005000")).toEqual([]);

  const setting = await cli(
    "merchants",
    "below-minimum-callback",
    "--merchant",
    String(client.merchant.merchantId),
    "--set",
    "on",
  );
  expect(setting).toMatchObject({ is_below_minimum_callback_on: true });
  await client.post("/sandbox/payments", {
    address: address.address,
    currency: "BTC",
    amount: "0.00009999",
  });
  await expect.poll(() => events("0.00009999"), { timeout: 15_000 }).toHaveLength(1);
  const announced = about("0.00009999")[0]!;
  // As the public API's "Deposit below minimum amount" test case describes it.
  expect(announced).toMatchObject({
    event: "deposit.below_minimum",
    body: {
      type: "deposit",
      status: "cancelled",
      error: "Transaction amount less than minimum deposit.",
      end_user_reference: "user-4",
      crypto_address: { address: address.address, currency: "BTC", foreign_id: "wallet-4" },
      currency_sent: { currency: "BTC", amount: "0.00009999" },
      fees: [],
    },
  });
  expect(announced.body).not.toHaveProperty("currency_received");

  await client.post("/sandbox/blocks", { currency: "BTC", count: 2 });
  // Only the 0.001 BTC deposit is credited (less its 0.5 % fee); the two small ones never are.
  await expect
    .poll(
      async () => {
        const accounts = (await (await client.post("/accounts/list")).json()).data;
        return accounts.find((a: { currency: string }) => a.currency === "BTC").balance;
      },
      { timeout: 15_000 },
    )
    .toBe("0.00099500");
  const info = await (await client.post("/transactions/info", { id: announced.body.id })).json();
  expect(info).toMatchObject({
    status: "cancelled",
    error: "Transaction amount less than minimum deposit.",
    additional_details: { status: "below_minimum", minimum_amount: "0.00010000" },
  });
  // Confirmed held deposits send no further callback: the one announced, plus the normal one's confirmation.
  await expect
    .poll(() => events("0.00100000"), { timeout: 15_000 })
    .toEqual(["deposit.processing not_confirmed", "deposit.confirmed confirmed"]);
  expect(events("0.00009999")).toHaveLength(1);
  expect(events("0.00005000")).toEqual([]);
});
