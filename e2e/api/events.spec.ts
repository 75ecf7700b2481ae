import { createMerchant, expect, signedClient, test } from "../fixtures";

type Event = {
  id: number;
  event: string;
  transaction_id: number;
  body: string;
  delivery: {
    state: string;
    attempts: number;
    last_http_status: number | null;
    next_attempt_at: string | null;
    delivered_at: string | null;
  };
};

test("events/list shows the callbacks the receiver got, byte for byte, with their delivery state", async ({
  client,
  request,
  receiver,
}) => {
  const foreignId = `events-${Date.now()}`;
  const created = await client.post("/invoices/create", {
    end_user_reference: "events-1",
    timer: false,
    title: "Events test",
    foreign_id: foreignId,
    currency: "BTC",
    amount: "0.001",
    url_success: "https://shop.example/ok",
    url_failed: "https://shop.example/failed",
    email_user: "buyer@example.com",
    sender_type: "natural",
    sender_data: { first_name: "Ada", last_name: "Lovelace", date_of_birth: "1990-12-10" },
  });
  const { id, url } = (await created.json()).data;
  const events = async (filters: Record<string, unknown> = {}) => {
    const response = await client.post("/events/list", filters);
    expect(response.status()).toBe(200);
    return (await response.json()).data as { events: Event[]; next_cursor: string | null };
  };

  // invoice.pending, answered 200 by the receiver.
  await request.post(`/api/checkout/${url.split("/pay/")[1]}/currency`, { data: { currency: "BTC" } });
  await expect
    .poll(async () => (await events()).events[0]?.delivery.state, { timeout: 15_000 })
    .toBe("delivered");

  // invoice.cancelled, answered 500: recorded, and retried later (the public schedule's first minute).
  receiver.queue.push({ status: 500 });
  expect((await client.post(`/invoices/${foreignId}/cancel`)).status()).toBe(200);
  await expect
    .poll(async () => (await events()).events[0]?.delivery.last_http_status, { timeout: 15_000 })
    .toBe(500);

  const page = await events();
  expect(page.next_cursor).toBeNull();
  expect(page.events.map((e) => [e.event, e.transaction_id])).toEqual([
    ["invoice.cancelled", id],
    ["invoice.pending", id],
  ]);
  const [cancelled, pending] = page.events;
  expect(receiver.received.map((r) => r.body.toString("utf8"))).toEqual([pending!.body, cancelled!.body]);
  expect(JSON.parse(pending!.body)).toMatchObject({ id, status: "pending" });
  expect(pending!.delivery).toMatchObject({ state: "delivered", attempts: 1, last_http_status: 200 });
  expect(pending!.delivery.delivered_at).not.toBeNull();
  expect(cancelled!.delivery).toMatchObject({ state: "pending", attempts: 1, last_http_status: 500 });
  expect(Date.parse(cancelled!.delivery.next_attempt_at!)).toBeGreaterThan(Date.now());

  // Filters and pages.
  expect((await events({ delivery_state: "delivered" })).events.map((e) => e.id)).toEqual([pending!.id]);
  expect((await events({ transaction_id: id + 1_000_000 })).events).toEqual([]);
  const first = await events({ limit: 1 });
  expect(first.events.map((e) => e.id)).toEqual([cancelled!.id]);
  const second = await events({ limit: 1, cursor: first.next_cursor });
  expect(second).toEqual({ events: [pending], next_cursor: null });

  // Another merchant sees none of them, and a bad filter is a 400 in the public shape.
  const stranger = signedClient(request, await createMerchant("Stranger"));
  expect((await (await stranger.post("/events/list")).json()).data.events).toEqual([]);
  const invalid = await client.post("/events/list", { delivery_state: "queued" });
  expect(invalid.status()).toBe(400);
  expect(Object.keys((await invalid.json()).errors)).toEqual(["delivery_state"]);
});
