import { createHmac, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as listEventsRoute } from "@/app/api/v2/events/list/route";
import type { CallbackSettings } from "@/lib/callbacks/callback-settings";
import { queueCallback } from "@/lib/callbacks/queue-callback";
import { setCallbackUrl } from "@/lib/callbacks/set-callback-url";
import { SecretBox } from "@/lib/crypto/secret-box";
import { registerDatabase, unregisterDatabase } from "@/lib/db/client";
import { callbackHandlers } from "@/lib/host/job-handlers";
import { runDueJobs } from "@/lib/jobs/runner";
import { createMerchant } from "@/lib/merchants/create-merchant";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { createFixedInvoice } from "../support/invoices";
import { startReceiver } from "../support/receiver";

type Caller = { merchantId: number; key: string; secret: string };
type Event = {
  id: number;
  event: string;
  transaction_id: number;
  created_at: string;
  url: string;
  body: string;
  redelivery_of: number | null;
  delivery: {
    state: string;
    attempts: number;
    last_http_status: number | null;
    last_error: string | null;
    last_attempt_at: string | null;
    next_attempt_at: string | null;
    waiting_for: number | null;
    delivered_at: string | null;
  };
};

/** POST /api/v2/events/list through its real route handler, over callbacks delivered over real HTTP. */
describe(`events/list on ${testDriver}`, () => {
  let database: TestDatabase;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let shop: Caller;
  let other: Caller;
  let settings: CallbackSettings;
  const masterKey = randomBytes(32);
  const box = new SecretBox(masterKey);
  /** The shop's invoices in creation order: delivered, failed, pending. */
  const invoiceIds: number[] = [];

  async function caller(name: string): Promise<Caller> {
    const created = await createMerchant(database.db, box, {
      name,
      email: `${name.toLowerCase()}@example.com`,
      password: "long password 1",
    });
    await setCallbackUrl(database.db, {
      merchantId: created.merchantId,
      url: receiver.url(),
      mode: "sandbox",
    });
    return { merchantId: created.merchantId, key: created.apiKey.key, secret: created.apiKey.secret };
  }

  async function list(payload: unknown, as: Caller = shop) {
    const body = JSON.stringify(payload);
    const response = await listEventsRoute(
      new Request("http://kassa.test/api/v2/events/list", {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-processing-key": as.key,
          "x-processing-signature": createHmac("sha512", as.secret).update(body).digest("hex"),
        },
        body,
      }),
      { params: Promise.resolve({}) },
    );
    return { status: response.status, json: await response.json() };
  }
  const events = async (payload: unknown, as?: Caller) => {
    const answer = await list(payload, as);
    expect(answer.status).toBe(200);
    return answer.json.data as { events: Event[]; next_cursor: string | null };
  };

  const deliver = (scheduleSeconds: number[]) =>
    runDueJobs(database.db, callbackHandlers({ ...settings, scheduleSeconds }));

  beforeAll(async () => {
    process.env.KASSA_MASTER_KEY = masterKey.toString("hex");
    process.env.KASSA_MODE = "sandbox";
    database = await createTestDatabase();
    registerDatabase(database);
    receiver = await startReceiver();
    settings = { mode: "sandbox", timeoutMs: 2_000, scheduleSeconds: [], box };
    shop = await caller("Shop");
    other = await caller("Other");

    // Delivered (200), failed for good (500 with no retry left), pending (503, retry in an hour).
    for (const outcome of [
      { status: 200, schedule: [] },
      { status: 500, schedule: [] },
      { status: 503, schedule: [3600] },
    ]) {
      const invoice = await createFixedInvoice(database.db, shop.merchantId, "BTC");
      invoiceIds.push(invoice.id);
      receiver.queue.push({ status: outcome.status });
      await deliver(outcome.schedule);
    }
    await createFixedInvoice(database.db, other.merchantId, "BTC");
    await deliver([]);
  });

  afterAll(async () => {
    unregisterDatabase();
    await receiver.close();
    await database.drop();
  });

  it("lists the merchant's callbacks newest first, with the exact bytes the receiver got and their delivery", async () => {
    const page = await events({});
    expect(page.next_cursor).toBeNull();
    expect(page.events.map((e) => e.transaction_id)).toEqual([...invoiceIds].reverse());
    const [pending, failed, delivered] = page.events;

    // The receiver saw the shop's three callbacks first, in order, then the other merchant's.
    const bodies = receiver.received.slice(0, 3).map((r) => r.body.toString("utf8"));
    expect([delivered!.body, failed!.body, pending!.body]).toEqual(bodies);
    for (const event of page.events) {
      expect(event.event).toBe("invoice.pending");
      expect(JSON.parse(event.body).id).toBe(event.transaction_id);
      expect(event.url).toBe(receiver.url());
      expect(event.delivery.attempts).toBe(1);
      expect(event.delivery.last_attempt_at).not.toBeNull();
    }
    expect(delivered!.delivery).toMatchObject({
      state: "delivered",
      last_http_status: 200,
      next_attempt_at: null,
    });
    expect(delivered!.delivery.delivered_at).not.toBeNull();
    expect(failed!.delivery).toMatchObject({
      state: "failed",
      last_http_status: 500,
      next_attempt_at: null,
      delivered_at: null,
    });
    expect(pending!.delivery).toMatchObject({ state: "pending", last_http_status: 503, delivered_at: null });
    const retryIn =
      Date.parse(pending!.delivery.next_attempt_at!) - Date.parse(pending!.delivery.last_attempt_at!);
    expect(retryIn).toBeGreaterThan(3500_000);
    expect(retryIn).toBeLessThan(3700_000);
  });

  it("never shows another merchant's callbacks", async () => {
    const theirs = await events({}, other);
    expect(theirs.events).toHaveLength(1);
    expect(invoiceIds).not.toContain(theirs.events[0]!.transaction_id);
    expect((await events({ transaction_id: theirs.events[0]!.transaction_id })).events).toEqual([]);
  });

  it("filters by delivery state, transaction and time", async () => {
    for (const state of ["delivered", "failed", "pending"] as const) {
      const { events: only } = await events({ delivery_state: state });
      expect(only.map((e) => e.delivery.state)).toEqual([state]);
    }
    const { events: one } = await events({ transaction_id: invoiceIds[1] });
    expect(one.map((e) => e.transaction_id)).toEqual([invoiceIds[1]]);

    const all = (await events({})).events;
    const middle = all[1]!.created_at;
    const since = (await events({ since: middle })).events;
    expect(since.map((e) => e.id)).toEqual(all.filter((e) => e.created_at >= middle).map((e) => e.id));
    expect((await events({ since: "2999-01-01T00:00:00Z" })).events).toEqual([]);
    // Null means absent.
    expect((await events({ since: null, delivery_state: null, limit: null })).events).toHaveLength(3);
  });

  it("pages with a cursor until next_cursor is null", async () => {
    const all = (await events({})).events;
    const first = await events({ limit: 2 });
    expect(first.events.map((e) => e.id)).toEqual(all.slice(0, 2).map((e) => e.id));
    expect(first.next_cursor).not.toBeNull();
    const second = await events({ limit: 2, cursor: first.next_cursor });
    expect(second.events.map((e) => e.id)).toEqual(all.slice(2).map((e) => e.id));
    expect(second.next_cursor).toBeNull();
  });

  it("answers bad filters in the public 400 shape", async () => {
    const cases: [unknown, string][] = [
      [{ limit: 0 }, "limit"],
      [{ limit: 101 }, "limit"],
      [{ cursor: "abc" }, "cursor"],
      [{ delivery_state: "queued" }, "delivery_state"],
      [{ since: "yesterday" }, "since"],
      [{ transaction_id: "x" }, "transaction_id"],
    ];
    for (const [payload, field] of cases) {
      const answer = await list(payload);
      expect(answer.status, JSON.stringify(payload)).toBe(400);
      expect(Object.keys(answer.json.errors)).toEqual([field]);
    }
  });

  // Last: it adds a callback and moves the URL, which the tests above do not expect.
  it("shows where a callback goes now, and a later callback waiting for an earlier one without a time of its own", async () => {
    const pendingInvoice = invoiceIds[2]!;
    const later = await database.db.transaction((tx) =>
      queueCallback(tx, { transactionId: pendingInvoice, status: "cancelled" }),
    );
    const moved = receiver.url("/moved");
    await setCallbackUrl(database.db, { merchantId: shop.merchantId, url: moved, mode: "sandbox" });

    const { events: both } = await events({ transaction_id: pendingInvoice });
    const [waiting, first] = both;
    expect(waiting!.id).toBe(later);
    expect(waiting!.delivery).toMatchObject({
      state: "pending",
      next_attempt_at: null,
      waiting_for: first!.id,
    });
    expect(first!.delivery.waiting_for).toBeNull();
    expect(first!.delivery.next_attempt_at).not.toBeNull();
    expect(both.map((e) => e.url)).toEqual([moved, moved]);
  });
});
