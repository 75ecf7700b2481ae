import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { GET as eventsRoute } from "@/app/api/checkout/[token]/events/route";
import { requestContextStorage } from "@/lib/api/request-context";
import { mineSandboxBlocks } from "@/lib/chain/sandbox/mine-blocks";
import { SecretBox } from "@/lib/crypto/secret-box";
import { registerDatabase, unregisterDatabase } from "@/lib/db/client";
import { databaseQueryCount } from "@/lib/db/query-count";
import { loadInvoiceById } from "@/lib/invoices/load-invoice";
import { runDueJobs } from "@/lib/jobs/runner";
import { createMerchant } from "@/lib/merchants/create-merchant";
import { formatAmount } from "@/lib/money";
import { type CheckoutHub, createCheckoutHub, type StreamSink } from "@/lib/notify/checkout-hub";
import { stopCheckoutHub } from "@/lib/notify/checkout-hub-slot";
import { TSX_FLAGS } from "../../scripts/tsx-flags.mjs";
import { testClock } from "../support/clock";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { readEventStream, type StreamReader } from "../support/event-stream";
import { confirm, createFixedInvoice, handlers, pay, settings } from "../support/invoices";
import { waitUntil } from "../support/wait";

const CAPS = { perToken: 3, perAddress: 5, max: 8 };
const decoder = new TextDecoder();

/** The checkout's event stream: pushed by the database, one view per change, capped. */
describe(`checkout event stream on ${testDriver}`, () => {
  let database: TestDatabase;
  let merchantId: number;
  const open: StreamReader[] = [];

  beforeAll(async () => {
    process.env.KASSA_MASTER_KEY = randomBytes(32).toString("hex");
    process.env.KASSA_MODE = "sandbox";
    process.env.KASSA_CHECKOUT_STREAMS_PER_TOKEN = String(CAPS.perToken);
    process.env.KASSA_CHECKOUT_STREAMS_PER_ADDRESS = String(CAPS.perAddress);
    process.env.KASSA_CHECKOUT_STREAMS_MAX = String(CAPS.max);
    database = await createTestDatabase();
    registerDatabase(database);
    const merchant = await createMerchant(database.db, new SecretBox(randomBytes(32)), {
      name: "Stream shop",
      email: "stream@example.com",
      password: "long password 1",
    });
    merchantId = merchant.merchantId;
  });

  afterEach(async () => {
    for (const stream of open.splice(0)) await stream.cancel();
  });

  afterAll(async () => {
    await stopCheckoutHub();
    unregisterDatabase();
    await database.drop();
  });

  /** GET /api/checkout/<token>/events through its route handler, from `peer` (the connection's address). */
  async function request(token: string, peer = "198.51.100.1", forwardedFor?: string) {
    const headers: Record<string, string> = forwardedFor ? { "x-forwarded-for": forwardedFor } : {};
    return requestContextStorage().run({ requestId: "stream", peerAddress: peer }, () =>
      eventsRoute(new Request(`http://kassa.test/api/checkout/${token}/events`, { headers }), {
        params: Promise.resolve({ token }),
      }),
    );
  }

  async function stream(token: string, peer?: string) {
    const response = await request(token, peer);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const reader = readEventStream(response.body!);
    open.push(reader);
    return reader;
  }

  const newInvoice = () => createFixedInvoice(database.db, merchantId, "LTC");

  it("pushes a payment, each confirmation and the end to an open stream, with no query while nothing changes", async () => {
    const invoice = await newInvoice();
    const reader = await stream(invoice.invoice.token);
    await waitUntil(() => reader.views.length === 1, { what: "the first view" });
    expect(reader.views[0]).toMatchObject({ token: invoice.invoice.token, status: "pending", payments: [] });

    // The old stream asked the database twice a second per open page; a pushed one asks nothing.
    const before = databaseQueryCount();
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(databaseQueryCount() - before).toBe(0);
    expect(reader.views).toHaveLength(1);

    const due = invoice.invoice.senderAmount!;
    await pay(database.db, invoice, due);
    const seen = await waitUntil(() => reader.views.find((view) => view.payments.length === 1), {
      what: "the payment on the stream",
    });
    expect(seen.payments[0]).toMatchObject({ confirmations: 0, is_confirmed: false, is_late: false });

    // A sandbox block moves the payment's confirmations: announced by the chain tip, not by the invoice.
    await mineSandboxBlocks(database.db, { currency: "LTC", count: 1 });
    await waitUntil(() => reader.views.at(-1)?.payments[0]?.confirmations === 1, {
      what: "one confirmation on the stream",
    });

    await confirm(database.db, "LTC");
    await waitUntil(() => reader.isEnded(), { what: "the stream to end once the invoice is paid" });
    expect(reader.views.at(-1)).toMatchObject({ status: "confirmed" });
  });

  it("keeps the stream of an expired invoice open and shows a late payment", async () => {
    const clock = testClock();
    const invoice = await newInvoice();
    const reader = await stream(invoice.invoice.token);
    await waitUntil(() => reader.views.length === 1, { what: "the first view" });

    clock.advance(settings.timerSeconds + 1);
    await runDueJobs(database.db, handlers, { clock });
    const expired = await waitUntil(() => reader.views.find((view) => view.status === "failed"), {
      what: "the expiry on the stream",
    });
    expect(expired.status_reason).toBeTruthy();
    expect(reader.isEnded()).toBe(false);

    await pay(database.db, invoice, invoice.invoice.senderAmount!, clock);
    const late = await waitUntil(() => reader.views.find((view) => view.payments.length === 1), {
      what: "the late payment on the stream",
    });
    expect(late.payments[0]).toMatchObject({ is_late: true });
    expect(reader.isEnded()).toBe(false);
  });

  it("answers 429 with Retry-After over the cap per invoice and per address, 503 over the process's cap", async () => {
    const [first, second, third, fourth] = [
      await newInvoice(),
      await newInvoice(),
      await newInvoice(),
      await newInvoice(),
    ];
    for (let i = 0; i < CAPS.perToken; i++) await stream(first.invoice.token, "198.51.100.1");
    const perToken = await request(first.invoice.token, "198.51.100.2");
    expect(perToken.status).toBe(429);
    expect(perToken.headers.get("retry-after")).toBe("30");
    expect(await perToken.json()).toEqual({
      error: `This invoice already has ${CAPS.perToken} live pages open; close one or retry later.`,
      code: "rate_limited",
    });

    await stream(second.invoice.token, "198.51.100.1");
    await stream(second.invoice.token, "198.51.100.1");
    // X-Forwarded-For from a peer that is not a configured proxy is not believed: same address.
    const perAddress = await request(third.invoice.token, "198.51.100.1", "203.0.113.9");
    expect(perAddress.status).toBe(429);
    expect(perAddress.headers.get("retry-after")).toBe("30");
    expect((await perAddress.json()).error).toMatch(/^Your address already has 5 live checkout pages open/);

    for (let i = 0; i < CAPS.max - CAPS.perAddress; i++)
      await stream(third.invoice.token, `198.51.100.${10 + i}`);
    const full = await request(fourth.invoice.token, "198.51.100.99");
    expect(full.status).toBe(503);
    expect(full.headers.get("retry-after")).toBe("30");
    expect((await full.json()).code).toBe("service_unavailable");

    // A page that leaves gives its place back.
    await open.pop()!.cancel();
    await waitUntil(async () => (await request(fourth.invoice.token, "198.51.100.99")).status === 200, {
      what: "a place freed by a closed stream",
    });
  });

  it("answers 404 for an unknown invoice", async () => {
    const response = await request("no-such-token");
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: "No such invoice.", code: "not_found" });
  });

  describe("one hub", () => {
    let hub: CheckoutHub;
    beforeAll(() => {
      hub = createCheckoutHub({
        driver: database.driver,
        db: database.db,
        settings,
        limits: { perToken: 1_000, perAddress: 1_000, max: 1_000 },
      });
    });
    afterAll(() => hub.stop());

    /** `count` streams on one invoice; each collects the views it is sent. */
    function viewers(token: string, count: number) {
      return Array.from({ length: count }, (_, i) => {
        const texts: string[] = [];
        const sink: StreamSink = { send: (bytes) => texts.push(decoder.decode(bytes)), end: () => {} };
        const opened = hub.open({ token, address: `10.0.0.${i % 250}`, sink });
        if (!("close" in opened)) throw opened;
        return texts;
      });
    }

    /**
     * Until no statement was sent for 300 ms: on PostgreSQL the invoice's own creation is announced
     * asynchronously and may still be looked at when the streams open.
     */
    const quiet = () =>
      waitUntil(
        async () => {
          const before = databaseQueryCount();
          await new Promise((resolve) => setTimeout(resolve, 300));
          return databaseQueryCount() === before;
        },
        { what: "no statement for 300 ms" },
      );

    /** The statements one announced change costs, from the change until every viewer has it. */
    async function queriesForOneChange(token: string, streams: string[][]) {
      await waitUntil(() => streams.every((texts) => texts.length >= 1), { what: "every first view" });
      await quiet();
      const sent = streams.map((texts) => texts.length);
      const before = databaseQueryCount();
      await database.db.execute(sql`update invoices set title = title || '.' where token = ${token}`);
      await waitUntil(() => streams.every((texts, i) => texts.length === sent[i]! + 1), {
        what: "every viewer to get the change",
      });
      await quiet();
      // The update itself aside (counted from before it: the announcement may be handled before
      // the update's own answer arrives).
      return databaseQueryCount() - before - 1;
    }

    it("computes one view per change for all the streams of an invoice", async () => {
      await hub.ready;
      const alone = await newInvoice();
      const crowded = await newInvoice();
      const one = await queriesForOneChange(alone.invoice.token, viewers(alone.invoice.token, 1));
      const many = await queriesForOneChange(crowded.invoice.token, viewers(crowded.invoice.token, 200));
      // One computation is a few statements (a rate cached in memory may spare one); a computation
      // per viewer would be hundreds for 200 viewers.
      for (const statements of [one, many]) {
        expect(statements).toBeGreaterThan(0);
        expect(statements).toBeLessThan(8);
      }
    });
  });

  it("sends an open page the new price the re-pricing job writes when the rate lock ends", async () => {
    // No timer on the invoice: its rate holds for rateLockSeconds; the job queued with the lock
    // re-prices it, and the hub, which only reads, passes the change on.
    const clock = testClock();
    const shortLock = { ...settings, pricing: { ...settings.pricing, rateLockSeconds: 60 }, clock };
    const hub = createCheckoutHub({
      driver: database.driver,
      db: database.db,
      settings: shortLock,
      limits: { perToken: 10, perAddress: 10, max: 10 },
    });
    try {
      await hub.ready;
      const invoice = await createFixedInvoice(database.db, merchantId, "LTC", { timer: false }, shortLock);
      const texts: string[] = [];
      hub.open({
        token: invoice.invoice.token,
        address: "10.0.0.1",
        sink: { send: (bytes) => texts.push(decoder.decode(bytes)), end: () => {} },
      });
      const fixedAt = (text: string) => JSON.parse(text.split("data: ")[1]!).fixed_at as number;
      await waitUntil(() => texts.length === 1, { what: "the first view" });
      const storedFixedAt = async () =>
        (await loadInvoiceById(database.db, invoice.id))!.invoice.fixedAt!.getTime();
      const first = await storedFixedAt();
      // Within the lock the job is not due: the price stands.
      clock.advance(59);
      await runDueJobs(database.db, handlers, { clock });
      expect(await storedFixedAt()).toBe(first);
      clock.advance(2);
      await runDueJobs(database.db, handlers, { clock });
      // Re-priced at the test clock's "now": 61 s on, plus the real time the test took.
      const second = await storedFixedAt();
      expect(second).toBeGreaterThanOrEqual(first + 61_000);
      const repriced = await waitUntil(() => texts.length >= 2 && texts.at(-1), {
        what: "the new price at the end of the lock",
      });
      expect(fixedAt(repriced)).toBe(Math.floor(second / 1000));
    } finally {
      await hub.stop();
    }
  });

  it("beats every stream on its own schedule and ends one open longer than the cap", async () => {
    const hub = createCheckoutHub({
      driver: database.driver,
      db: database.db,
      settings,
      limits: { perToken: 10, perAddress: 10, max: 10 },
      heartbeatMs: 100,
      maxOpenMs: 1_500,
    });
    try {
      await hub.ready;
      const invoice = await newInvoice();
      const texts: string[] = [];
      let isEnded = false;
      const sink: StreamSink = {
        send: (bytes) => texts.push(decoder.decode(bytes)),
        end: () => (isEnded = true),
      };
      hub.open({ token: invoice.invoice.token, address: "10.0.0.1", sink });
      await waitUntil(() => texts.includes(": heartbeat\n\n"), { what: "a heartbeat" });
      expect(texts[0]).toMatch(/^event: invoice\ndata: \{/);
      await waitUntil(() => isEnded, { what: "the stream to end at the cap" });
      expect(hub.openCount()).toBe(0);
    } finally {
      await hub.stop();
    }
  });

  if (testDriver === "pg") {
    it("delivers a payment made by another process to a stream served by this one", async () => {
      const invoice = await newInvoice();
      const reader = await stream(invoice.invoice.token);
      await waitUntil(() => reader.views.length === 1, { what: "the first view" });
      const child = spawn(process.execPath, [...TSX_FLAGS, "tests/support/sandbox-payer-child.ts"], {
        env: {
          ...process.env,
          KASSA_CHILD_DB: JSON.stringify(database.location),
          KASSA_CHILD_PAYMENT: JSON.stringify({
            currency: "LTC",
            address: invoice.address!.address,
            amount: String(invoice.invoice.senderAmount!),
          }),
        },
        stdio: ["ignore", "pipe", "inherit"],
      });
      const [code] = (await once(child, "exit")) as [number];
      expect(code).toBe(0);
      const seen = await waitUntil(() => reader.views.find((view) => view.payments.length === 1), {
        what: "the other process's payment on this process's stream",
      });
      expect(seen.payments[0]).toMatchObject({ amount: formatAmount(invoice.invoice.senderAmount!) });
    });
  }
});
