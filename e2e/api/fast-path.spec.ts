import { expect, test } from "../fixtures";

// The production server answers /api/v2 from the route handlers directly (server/serve-api-route.ts)
// and leaves everything else to Next.js. These check the seams of that split on the real server; the
// `api-next` project runs them (and the other specs about the request's way in) with the fast path off.

test("a fast-path answer carries the same headers as Next.js's answers", async ({ client }) => {
  const response = await client.post("/accounts/list");
  expect(response.status()).toBe(200);
  const headers = response.headers();
  expect(headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["x-frame-options"]).toBe("DENY");
  expect(headers["cache-control"]).toBe("no-store");
  expect(headers["content-type"]).toBe("application/json; charset=utf-8");
  const body = await response.body();
  // The fast path sends a one-chunk JSON body with its length; Next.js's pipeline sends it chunked.
  if (test.info().project.name === "api") expect(Number(headers["content-length"])).toBe(body.length);
});

test("path parameters arrive decoded, as Next.js would hand them over", async ({ client }) => {
  const foreignId = `order ${Date.now()} ü+&`;
  const created = await client.post("/invoices/create", {
    foreign_id: foreignId,
    end_user_reference: "fast-path-customer",
    timer: true,
    title: "Order",
    currency: "EUR",
    amount: 10,
    url_success: "https://shop.example/paid",
    url_failed: "https://shop.example/failed",
    email_user: "buyer@example.com",
    sender_type: "natural",
    sender_data: { first_name: "Ada", last_name: "Lovelace", date_of_birth: "1990-12-10" },
  });
  expect(created.status()).toBe(201);
  const cancelled = await client.post(`/invoices/${encodeURIComponent(foreignId)}/cancel`);
  expect(cancelled.status()).toBe(200);
  expect(await cancelled.json()).toEqual([]);
  const info = await client.post("/transactions/info", { foreign_id: foreignId });
  expect(await info.json()).toMatchObject({ foreign_id: foreignId, status: "cancelled" });
});

test("what the fast path does not serve still gets Next.js's answers", async ({ request }) => {
  const head = await request.head("/api/v2/ping");
  expect(head.status()).toBe(200);
  const options = await request.fetch("/api/v2/ping", { method: "OPTIONS" });
  expect(options.status()).toBe(204);
  expect(options.headers().allow).toContain("GET");
  const wrongMethod = await request.delete("/api/v2/ping");
  expect(wrongMethod.status()).toBe(405);
  // /api/v2 paths are answered with a trailing slash too (the public cancel path has one; a 308
  // fails some clients); pages keep Next.js's redirect.
  const slash = await request.get("/api/v2/ping/", { maxRedirects: 0 });
  expect(slash.status()).toBe(200);
  expect(await slash.text()).toBe("OK");
  const page = await request.get("/login/", { maxRedirects: 0 });
  expect(page.status()).toBe(308);
  const unknown = await request.post("/api/v2/no/such/route");
  expect(unknown.status()).toBe(404);
  expect(await unknown.json()).toEqual({ error: "Not found", code: "not_found" });
});
