import { createHmac } from "node:crypto";
import { costIn, decimal, feeOf, INVOICED, switchedAndPaidInBtc, units, worthOf } from "../currency-switch";
import { expect, type Receiver, type SignedClient, test } from "../fixtures";

/**
 * "Pay with another currency" in figures, against the production server: the customer chooses BTC,
 * switches to LTC, pays a third of the BTC price to the BTC address (sent from the page shown first)
 * and the rest to the LTC address. transactions/info, the confirmed callback the real receiver gets
 * and the merchant's balance must pair each coin with its own converted value and add up, against
 * the figures e2e/currency-switch.ts computes from the sandbox prices.
 */

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
  const before = await eurBalance();
  const { id, info, btc, ltc, btcPaid, btcGross } = await switchedAndPaidInBtc(client, request, {
    title: "Two coins",
    foreignId: "two-coins",
  });
  expect(units(btc.sender_amount)).toBe(costIn(INVOICED, "EUR", "BTC"));
  // The invoice asks the rest in LTC, at the current price.
  const ltcDue = costIn(INVOICED - btcGross, "EUR", "LTC");
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
