import { request as playwrightRequest } from "@playwright/test";
import { shortTimer } from "../../playwright.config";
import { readEventStream, type StreamReader } from "../../tests/support/event-stream";
import { waitUntil } from "../../tests/support/wait";
import {
  createMerchant,
  expect,
  OWN_CHAIN,
  projectBaseURL,
  type SignedClient,
  signedClient,
  test,
} from "../fixtures";

/**
 * The checkout's event stream on the production server: what the database announces
 * reaches open pages, an expired invoice's page still shows a late payment, and the streams of one
 * invoice are capped with a clear 429 (the page then polls GET /api/checkout/<token>).
 */
let counter = 0;
async function createInvoice(client: SignedClient, currency: string) {
  counter++;
  const response = await client.post("/invoices/create", {
    end_user_reference: `stream-${counter}`,
    timer: true,
    title: "Order",
    foreign_id: `stream-${Date.now()}-${counter}`,
    currency: "EUR",
    amount: 100,
    sender_currency: currency,
    url_success: "https://shop.example/paid",
    url_failed: "https://shop.example/failed",
    email_user: "buyer@example.com",
    sender_type: "natural",
    sender_data: { first_name: "Ada", last_name: "Lovelace", date_of_birth: "1990-12-10" },
  });
  expect(response.status()).toBe(201);
  const { url } = (await response.json()).data as { url: string };
  return new URL(url).pathname.split("/").pop()!;
}

const streams: { reader: StreamReader; abort: AbortController }[] = [];

async function openStream(baseURL: string, token: string) {
  const abort = new AbortController();
  const response = await fetch(`${baseURL}/api/checkout/${token}/events`, { signal: abort.signal });
  if (response.status !== 200) return { response, reader: undefined };
  expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
  const reader = readEventStream(response.body!);
  streams.push({ reader, abort });
  return { response, reader };
}

test.afterEach(async () => {
  for (const { reader, abort } of streams.splice(0)) {
    await reader.cancel();
    abort.abort();
  }
});

test("a payment and its confirmations reach an open checkout stream, which ends once the invoice is paid", async ({
  client,
}) => {
  // A chain no other test mines: on BTC, another test's blocks could confirm the payment before the
  // stream showed it processing (e2e/fixtures.ts, OWN_CHAIN).
  const coin = OWN_CHAIN.checkoutStream;
  const token = await createInvoice(client, coin);
  const { reader } = await openStream(projectBaseURL(), token);
  await waitUntil(() => reader!.views.length >= 1, { what: "the first view" });
  const first = reader!.views[0]!;
  expect(first).toMatchObject({ token, status: "pending", payments: [] });

  const paid = await client.post("/sandbox/payments", {
    address: first.address,
    currency: coin,
    amount: first.sender_amount,
  });
  expect(paid.status()).toBe(201);
  await waitUntil(
    () => reader!.views.some((view) => view.status === "processing" && view.payments.length === 1),
    {
      what: "the payment on the stream",
    },
  );

  // USDT on Tron: 20 confirmations.
  expect((await client.post("/sandbox/blocks", { currency: coin, count: 20 })).status()).toBe(201);
  await waitUntil(() => reader!.isEnded(), { what: "the stream to end once paid", timeoutMs: 20_000 });
  expect(reader!.views.at(-1)).toMatchObject({ status: "confirmed", payments: [{ is_confirmed: true }] });
});

test("over the cap of streams per invoice the answer is 429 with Retry-After, and a closed page frees its place", async ({
  client,
}) => {
  const token = await createInvoice(client, "LTC");
  // The server's default: 20 live pages per invoice (docs/OPERATIONS.md, KASSA_CHECKOUT_STREAMS_PER_TOKEN).
  for (let i = 0; i < 20; i++) expect((await openStream(projectBaseURL(), token)).response.status).toBe(200);
  const refused = await fetch(`${projectBaseURL()}/api/checkout/${token}/events`);
  expect(refused.status).toBe(429);
  expect(refused.headers.get("retry-after")).toBe("30");
  expect(await refused.json()).toEqual({
    error: "This invoice already has 20 live pages open; close one or retry later.",
    code: "rate_limited",
  });
  // The page's fallback still answers: the invoice itself.
  const polled = await fetch(`${projectBaseURL()}/api/checkout/${token}`);
  expect(polled.status).toBe(200);
  expect((await polled.json()).token).toBe(token);

  const leaving = streams.pop()!;
  await leaving.reader.cancel();
  leaving.abort.abort();
  await waitUntil(
    async () => {
      const { response } = await openStream(projectBaseURL(), token);
      if (response.status !== 200) await response.body?.cancel();
      return response.status === 200;
    },
    { what: "the place of the closed page", intervalMs: 200 },
  );
});

test("the stream of an expired invoice stays open and shows a late payment", async () => {
  const api = await playwrightRequest.newContext({ baseURL: shortTimer.baseURL });
  try {
    const client = signedClient(api, await createMerchant("Late Stream Shop", shortTimer.dataDir));
    const token = await createInvoice(client, "LTC");
    const { reader } = await openStream(shortTimer.baseURL, token);
    await waitUntil(() => reader!.views.length >= 1, { what: "the first view" });
    const first = reader!.views[0]!;
    // The short-timer server's invoices expire after 8 seconds; the expiry job announces it.
    await waitUntil(() => reader!.views.some((view) => view.status === "failed"), {
      what: "the expiry on the stream",
      timeoutMs: 30_000,
    });
    expect(reader!.isEnded()).toBe(false);

    const paid = await client.post("/sandbox/payments", {
      address: first.address,
      currency: "LTC",
      amount: first.sender_amount,
    });
    expect(paid.status()).toBe(201);
    const late = await waitUntil(() => reader!.views.find((view) => view.payments.length === 1), {
      what: "the late payment on the stream",
    });
    expect(late.status).toBe("failed");
    expect(late.payments[0]).toMatchObject({ is_late: true });
    expect(reader!.isEnded()).toBe(false);
  } finally {
    await api.dispose();
  }
});
