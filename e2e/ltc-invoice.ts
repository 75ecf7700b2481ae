import type { APIRequestContext } from "@playwright/test";
import { expect, type SignedClient } from "./fixtures";

/** 10^-8 units from the API's decimal text, and back (no trailing zeros), written here on their own. */
export const units = (text: string) => {
  const [whole, fraction = ""] = text.split(".");
  return BigInt(whole!) * 100_000_000n + BigInt(fraction.padEnd(8, "0"));
};
export const shown = (value: bigint) =>
  `${value / 100_000_000n}.${(value % 100_000_000n).toString().padStart(8, "0")}`.replace(/\.?0+$/, "");

/**
 * An untimed 40 EUR invoice whose customer chose LTC (or `currency`) on the checkout: its id and link,
 * its address and what is due there (10^-8 of the coin), as a merchant's shop and its customer would
 * make it.
 */
export async function ltcInvoice(
  client: SignedClient,
  request: APIRequestContext,
  input: {
    foreignId: string;
    title: string;
    customer: { first_name: string; last_name: string; email: string };
    currency?: string;
  },
) {
  const created = await client.post("/invoices/create", {
    end_user_reference: `cust-${input.foreignId}`,
    timer: false,
    title: input.title,
    foreign_id: input.foreignId,
    currency: "EUR",
    amount: "40",
    url_success: "https://shop.example/ok",
    url_failed: "https://shop.example/failed",
    email_user: input.customer.email,
    sender_type: "natural",
    sender_data: {
      first_name: input.customer.first_name,
      last_name: input.customer.last_name,
      date_of_birth: "1990-12-10",
    },
  });
  expect(created.status()).toBe(201);
  const invoice = (await created.json()).data as { id: number; url: string };
  const token = new URL(invoice.url).pathname.split("/pay/")[1];
  const view = await (
    await request.post(`/api/checkout/${token}/currency`, { data: { currency: input.currency ?? "LTC" } })
  ).json();
  return { invoice, address: view.address as string, due: units(view.sender_amount) };
}

/** Pays `amount` to `address` on the sandbox chain and mines until the invoice reads `status`. */
export async function payLtc(
  client: SignedClient,
  input: { invoiceId: number; address: string; amount: bigint; status: string },
) {
  const paid = await client.post("/sandbox/payments", {
    address: input.address,
    currency: "LTC",
    amount: shown(input.amount),
  });
  expect(paid.status()).toBe(201);
  await client.post("/sandbox/blocks", { currency: "LTC", count: 6 });
  await expect
    .poll(
      async () =>
        (
          await (
            await client.send("POST", "/transactions/info", JSON.stringify({ id: input.invoiceId }))
          ).json()
        ).status,
      { timeout: 20_000 },
    )
    .toBe(input.status);
}

/** A 40 EUR invoice the customer pays twice over in LTC on the sandbox chain, confirmed: it owes the excess. */
export async function overpaidLtcInvoice(client: SignedClient, request: APIRequestContext, name: string) {
  const foreignId = `refund-${name}-${Date.now()}`;
  const { invoice, address, due } = await ltcInvoice(client, request, {
    foreignId,
    title: "Desk lamp",
    customer: { first_name: "Ada", last_name: "Lovelace", email: "ada@example.com" },
  });
  await payLtc(client, { invoiceId: invoice.id, address, amount: due * 2n, status: "confirmed" });
  return { invoiceId: invoice.id, foreignId, excess: due };
}
