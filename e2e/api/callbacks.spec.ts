import { createHmac } from "node:crypto";
import http from "node:http";
import { cli, expect, test } from "../fixtures";

test("the running server delivers signed callbacks for an invoice's progress, and resends on request", async ({
  client,
  request,
}) => {
  const received: { body: Buffer; headers: http.IncomingHttpHeaders }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      received.push({ body: Buffer.concat(chunks), headers: req.headers });
      res.end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  try {
    await cli(
      "merchants",
      "set-callback",
      "--merchant",
      String(client.merchant.merchantId),
      "--url",
      `http://127.0.0.1:${port}/kassa`,
    );
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

    await expect.poll(() => received.length, { timeout: 10_000 }).toBe(1);
    const [first] = received;
    expect(first!.headers["x-processing-key"]).toBe(client.merchant.apiKey);
    expect(first!.headers["x-processing-signature"]).toBe(
      createHmac("sha512", client.merchant.apiSecret).update(first!.body).digest("hex"),
    );
    expect(JSON.parse(first!.body.toString())).toMatchObject({ id, type: "invoice", status: "pending" });

    const resent = await client.post("/callbacks/resend", { id });
    expect(resent.status()).toBe(201);
    await expect.poll(() => received.length, { timeout: 10_000 }).toBe(2);
    expect(received[1]!.body.equals(first!.body)).toBe(true);
    expect(received[1]!.headers["x-kassa-redelivery-of"]).toBe(first!.headers["x-kassa-callback-id"]);
  } finally {
    server.close();
  }
});
