import http from "node:http";
import { cli, expect, projectBaseURL, type SignedClient, sandboxCredit, test } from "../fixtures";

const BTC = "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu";
const SENDER = {
  sender_type: "legal",
  sender_data: { legal_name: "Shop GmbH", country_of_registration: "DEU" },
};

const payouts = (count: number, prefix: string, amount = "0.0005") =>
  Array.from({ length: count }, (_, i) => ({
    currency: "BTC",
    amount,
    address: BTC,
    foreign_id: `${prefix}-${i}`,
    receiver_type: "natural",
    receiver_data: { first_name: "Alan", last_name: "Turing", date_of_birth: "1912-06-23" },
  }));

/** A POST that declares `length` bytes and sends one, answered from its headers. */
function declaredPost(path: string, length: number): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      new URL(path, projectBaseURL()),
      { method: "POST", headers: { "content-type": "application/json", "content-length": String(length) } },
      (response) => {
        let text = "";
        response.on("data", (chunk: Buffer) => {
          text += chunk.toString();
        });
        response.on("end", () => {
          request.destroy();
          resolve({ status: response.statusCode ?? 0, text });
        });
      },
    );
    request.on("error", reject);
    request.write("{");
  });
}

async function btcBalance(client: SignedClient): Promise<string> {
  const accounts = (await (await client.post("/accounts/list")).json()).data as {
    currency: string;
    balance: string;
  }[];
  return accounts.find((a) => a.currency === "BTC")?.balance ?? "0.00000000";
}

test.describe("POST /withdrawal/batch (Kassa extension)", () => {
  test("takes 1,000 payouts in one request, once however often it is repeated, and holds them for one approval", async ({
    client,
  }) => {
    await sandboxCredit(client.merchant.merchantId, "BTC", "1");
    // Over the merchant's BTC limit as a whole (each payout is within it): the batch waits for one
    // approval, its funds reserved. It also keeps 1,000 sandbox broadcasts off the server the other
    // specs share, whose job queue they would hold up for longer than those specs wait.
    await cli(
      "merchants",
      "limits",
      "--merchant",
      String(client.merchant.merchantId),
      "--currency",
      "BTC",
      "--per-withdrawal",
      "0.1",
      "--json",
    );
    const reference = `november-${Date.now()}`;
    const body = { reference, ...SENDER, payouts: payouts(1000, reference) };
    // Over the 64 KiB cap of single requests, within the bulk endpoint's own.
    expect(JSON.stringify(body).length).toBeGreaterThan(64 * 1024);
    const response = await client.post("/withdrawal/batch", body);
    expect(response.status()).toBe(201);
    const batch = (await response.json()).data;
    expect(batch).toMatchObject({
      reference,
      status: "awaiting_approval",
      totals: [{ currency: "BTC", amount: "0.50000000", fee: "0.02000000", total_debit: "0.52000000" }],
    });
    expect(batch.payouts).toHaveLength(1000);
    expect(batch.payouts[999]).toMatchObject({
      row: 1000,
      foreign_id: `${reference}-999`,
      amount: "0.00050000",
      status: "pending",
      txid: null,
    });
    // Reserved: 1 BTC less 1,000 × (0.0005 + the 0.00002 network fee).
    expect(await btcBalance(client)).toBe("0.48000000");

    const again = await client.post("/withdrawal/batch", body);
    expect(again.status()).toBe(201);
    expect((await again.json()).data.id).toBe(batch.id);
    expect(await btcBalance(client)).toBe("0.48000000");

    const info = await client.post("/withdrawal/batch/info", { reference });
    expect(info.status()).toBe(200);
    const read = (await info.json()).data;
    expect(read.id).toBe(batch.id);
    expect(new Set(read.payouts.map((p: { id: number }) => p.id)).size).toBe(1000);
    const single = await client.send(
      "POST",
      "/transactions/info",
      JSON.stringify({ id: read.payouts[0].id }),
    );
    expect((await single.json()).foreign_id).toBe(`${reference}-0`);
  });

  test("refuses the whole batch for one bad payout, naming it, and moves nothing", async ({ client }) => {
    await sandboxCredit(client.merchant.merchantId, "BTC", "1");
    const reference = `bad-${Date.now()}`;
    const list = payouts(3, reference);
    list[1] = { ...list[1]!, address: `${BTC.slice(0, -1)}v` };
    const response = await client.post("/withdrawal/batch", { reference, ...SENDER, payouts: list });
    expect(response.status()).toBe(400);
    const { errors } = await response.json();
    expect(Object.keys(errors)).toEqual(["payouts.1.address"]);
    expect(await btcBalance(client)).toBe("1.00000000");
    const missing = await client.post("/withdrawal/batch/info", { reference });
    expect(missing.status()).toBe(404);
  });

  test("answers malformed and oversized batches with a 4xx", async ({ client }) => {
    const tooMany = await client.post("/withdrawal/batch", {
      reference: "x",
      ...SENDER,
      payouts: payouts(1001, "m"),
    });
    expect(tooMany.status()).toBe(400);
    expect(Object.keys((await tooMany.json()).errors)).toEqual(["payouts"]);
    const empty = await client.post("/withdrawal/batch", { reference: "x", ...SENDER, payouts: [] });
    expect(empty.status()).toBe(400);
    const notObjects = await client.post("/withdrawal/batch", {
      reference: "y",
      ...SENDER,
      payouts: [1, "two", null],
    });
    expect(notObjects.status()).toBe(400);
    // Over the bulk endpoint's 2 MiB cap: refused from the declared length, before a byte is read
    // (node:http, so the client sends only a few bytes and reads the answer; writing all 3 MB to a
    // server that has answered and closed would fail on the client's side, not the server's).
    const tooLarge = await declaredPost("/api/v2/withdrawal/batch", 3 * 1024 * 1024);
    expect(tooLarge.status).toBe(413);
    expect(JSON.parse(tooLarge.text).code).toBe("payload_too_large");
  });
});
