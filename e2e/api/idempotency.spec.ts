import { randomUUID } from "node:crypto";
import { expect, type SignedClient, sandboxCredit, test } from "../fixtures";

/** Idempotency-Key against the production server (docs/api-decisions.md, "Idempotency-Key"). */

function invoice(overrides: Record<string, unknown> = {}) {
  return {
    end_user_reference: "idem-buyer",
    timer: false,
    title: "Idempotent order",
    foreign_id: `idem-${randomUUID()}`,
    currency: "EUR",
    amount: "25",
    url_success: "https://shop.example/ok",
    url_failed: "https://shop.example/failed",
    email_user: "buyer@example.com",
    sender_type: "natural",
    sender_data: { first_name: "Ada", last_name: "Lovelace", date_of_birth: "1990-12-10" },
    ...overrides,
  };
}

function withdrawal() {
  return {
    currency: "BTC",
    amount: "0.01",
    address: "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu",
    foreign_id: `idem-w-${randomUUID()}`,
    end_user_reference: "idem-payee",
    sender_type: "legal",
    sender_data: { legal_name: "Shop GmbH", country_of_registration: "DEU" },
    receiver_type: "natural",
    receiver_data: { first_name: "Alan", last_name: "Turing", date_of_birth: "1912-06-23" },
  };
}

async function postWithKey(client: SignedClient, path: string, body: string, key: string) {
  const response = await client.send("POST", path, body, { "idempotency-key": key });
  return {
    status: response.status(),
    text: await response.text(),
    replayed: response.headers()["idempotent-replayed"],
  };
}

const btcBalance = async (client: SignedClient) => {
  const accounts = (await (await client.post("/accounts/list")).json()).data as {
    currency: string;
    balance: string;
  }[];
  return accounts.find((account) => account.currency === "BTC")?.balance;
};

test("a retry with the same key replays the identical status and body, and creates nothing more", async ({
  client,
}) => {
  const body = JSON.stringify(invoice());
  const key = randomUUID();
  const first = await postWithKey(client, "/invoices/create", body, key);
  expect(first.status).toBe(201);
  expect(first.replayed).toBeUndefined();

  const retry = await postWithKey(client, "/invoices/create", body, key);
  expect(retry).toEqual({ status: 201, text: first.text, replayed: "true" });

  // One invoice: transactions/info finds it by its foreign_id, with the id of the first answer.
  const { id, foreign_id } = JSON.parse(first.text).data;
  const found = await client.send("POST", "/transactions/info", JSON.stringify({ foreign_id }));
  expect((await found.json()).id).toBe(id);
});

test("the same key with a different body is refused with 409 and does nothing", async ({ client }) => {
  const key = randomUUID();
  expect((await postWithKey(client, "/invoices/create", JSON.stringify(invoice()), key)).status).toBe(201);
  const other = invoice();
  const refused = await postWithKey(client, "/invoices/create", JSON.stringify(other), key);
  expect(refused.status).toBe(409);
  expect(JSON.parse(refused.text)).toEqual({
    error: "This Idempotency-Key was already used with a different request. Use a new key for a new request.",
    code: "idempotency_key_reused",
  });
  const missing = await client.send(
    "POST",
    "/transactions/info",
    JSON.stringify({ foreign_id: other.foreign_id }),
  );
  expect(missing.status()).toBe(404);
});

test("a key first answered 400 replays the 400, even once the request would succeed", async ({ client }) => {
  const body = JSON.stringify(withdrawal());
  const key = randomUUID();
  const refused = await postWithKey(client, "/withdrawal/crypto", body, key);
  expect(refused.status).toBe(400);
  expect(JSON.parse(refused.text).errors).toBeDefined();

  const merchant = String(client.merchant.merchantId);
  await sandboxCredit(merchant, "BTC", "1");
  expect(await btcBalance(client)).toBe("1.00000000");

  expect(await postWithKey(client, "/withdrawal/crypto", body, key)).toEqual({
    ...refused,
    replayed: "true",
  });
  expect(await btcBalance(client)).toBe("1.00000000");

  // A new key is a new request: now it is accepted, and the balance is debited once.
  const accepted = await postWithKey(client, "/withdrawal/crypto", body, randomUUID());
  expect(accepted.status).toBe(201);
  // sender_amount is the amount, as the public API reports it; the balance is debited the amount plus
  // the 0.2 % withdrawal fee (0.00002 BTC): 1 - 0.01002 = 0.98998.
  expect(JSON.parse(accepted.text).data.sender_amount).toBe("0.01000000");
  expect(await btcBalance(client)).toBe("0.98998000");
});

test("a key over 255 characters is a 400 in the API's error shape", async ({ client }) => {
  const refused = await postWithKey(client, "/invoices/create", JSON.stringify(invoice()), "k".repeat(256));
  expect(refused.status).toBe(400);
  expect(JSON.parse(refused.text).code).toBe("idempotency_key_invalid");
});
