import { expect, sign, test } from "../fixtures";

const ADA = {
  sender_type: "natural",
  sender_data: { first_name: "Ada", last_name: "Lovelace", date_of_birth: "1990-12-10" },
};

/**
 * Payment links over HTTP against the production server: the signed endpoints and the customer's
 * public ones, the OpenAPI document, a visit's invoice callback carrying the link's id to a real
 * receiver, and the 4xx answers to what a client gets wrong.
 */
test("a payment link over HTTP: create, visit, callback with its id, list, deactivate, refuse", async ({
  client,
  request,
  receiver,
}) => {
  const created = await client.post("/payment-links/create", {
    title: "Yoga class",
    currency: "EUR",
    amount: "15",
    max_uses: 10,
  });
  expect(created.status()).toBe(201);
  const link = (await created.json()).data as { id: number; url: string; status: string };
  expect(link.status).toBe("active");
  const token = new URL(link.url).pathname.split("/link/")[1]!;

  // The customer's page and endpoint.
  const page = await request.get(`/link/${token}`);
  expect(page.status()).toBe(200);
  expect(page.headers()["x-robots-tag"]).toContain("noindex");
  expect(await page.text()).toContain("Yoga class");
  const started = await request.post(`/api/link/${token}/start`, { data: ADA });
  expect(started.status()).toBe(201);
  const invoice = (await started.json()) as { id: number; token: string; url: string };
  expect(new URL(invoice.url).pathname).toBe(`/pay/${invoice.token}`);

  // Choosing a coin makes the invoice payable: its callback reaches the merchant with the link's id.
  const chosen = await request.post(`/api/checkout/${invoice.token}/currency`, { data: { currency: "BTC" } });
  expect(chosen.status()).toBe(200);
  await expect
    .poll(() => receiver.received.find((r) => JSON.parse(r.body.toString()).id === invoice.id), {
      timeout: 15_000,
    })
    .toBeTruthy();
  const callback = receiver.received.find((r) => JSON.parse(r.body.toString()).id === invoice.id)!;
  expect(callback.headers["x-processing-signature"]).toBe(sign(callback.body, client.merchant.apiSecret));
  expect(JSON.parse(callback.body.toString())).toMatchObject({
    id: invoice.id,
    type: "invoice",
    status: "pending",
    payment_link_id: link.id,
  });

  const listed = await client.post("/payment-links/list", {});
  expect(listed.status()).toBe(200);
  expect((await listed.json()).data.payment_links[0]).toMatchObject({
    id: link.id,
    uses: 1,
    open_invoices: 1,
    paid_invoices: 0,
    received: "0.00000000",
  });

  // The document describes the three endpoints.
  const document = await (await request.get("/api/v2/openapi.json")).json();
  for (const path of ["/payment-links/create", "/payment-links/list", "/payment-links/{id}/deactivate"])
    expect(Object.keys(document.paths)).toContain(path);

  // What a client gets wrong: 4xx, never 5xx.
  const answers = [
    await client.post("/payment-links/create", {
      title: "x",
      currency: "EUR",
      amount: "15",
      min_amount: "10",
    }),
    await client.send("POST", "/payment-links/create", "{oops"),
    await request.post("/api/v2/payment-links/create", { data: { title: "x" } }),
    await client.post("/payment-links/abc/deactivate", {}),
    await request.post(`/api/link/${token}/start`, {
      data: "[1]",
      headers: { "content-type": "application/json" },
    }),
    await request.post(`/api/link/${token}/start`, { data: { ...ADA, amount: "1" } }),
    await request.post("/api/link/no-such-link/start", { data: ADA }),
    await request.get("/api/link/no-such-link"),
  ];
  expect(answers.map((answer) => answer.status())).toEqual([400, 400, 403, 404, 400, 400, 404, 404]);

  const deactivated = await client.post(`/payment-links/${link.id}/deactivate`, {});
  expect(deactivated.status()).toBe(200);
  expect((await deactivated.json()).data.status).toBe("inactive");
  const refused = await request.post(`/api/link/${token}/start`, { data: ADA });
  expect(refused.status()).toBe(410);
  expect((await refused.json()).code).toBe("gone");
  const view = await request.get(`/api/link/${token}`);
  expect(view.status()).toBe(410);
  // The invoice started before carries on.
  const still = await request.get(`/api/checkout/${invoice.token}`);
  expect((await still.json()).status).toBe("pending");
});
