import { createHmac } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { CallbackSettings } from "@/lib/callbacks/callback-settings";
import { queueCallback } from "@/lib/callbacks/queue-callback";
import { resendCallback } from "@/lib/callbacks/resend-callback";
import { setCallbackUrl } from "@/lib/callbacks/set-callback-url";
import { callbackAttempts, callbacks, merchants } from "@/lib/db/schema";
import { inTransaction } from "@/lib/db/transaction";
import { callbackHandlers } from "@/lib/host/job-handlers";
import { createInvoice } from "@/lib/invoices/create-invoice";
import { runDueJobs, startJobRunner } from "@/lib/jobs/runner";
import { createMerchant } from "@/lib/merchants/create-merchant";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import {
  confirm,
  createFixedInvoice,
  invoiceRequest,
  settings as invoiceSettings,
  pay,
  testKeys,
} from "../support/invoices";
import { startReceiver } from "../support/receiver";

describe(`callbacks over real HTTP on ${testDriver}`, () => {
  let database: TestDatabase;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let merchant: Awaited<ReturnType<typeof createMerchant>>;
  let settings: CallbackSettings;

  const deliverAll = (overrides: Partial<CallbackSettings> = {}) =>
    runDueJobs(database.db, callbackHandlers({ ...settings, ...overrides }));
  const callbacksOf = (transactionId: number) =>
    database.db
      .select()
      .from(callbacks)
      .where(eq(callbacks.transactionId, transactionId))
      .orderBy(asc(callbacks.id));
  const attemptsOf = (callbackId: number) =>
    database.db
      .select()
      .from(callbackAttempts)
      .where(eq(callbackAttempts.callbackId, callbackId))
      .orderBy(asc(callbackAttempts.id));
  /** Queues one invoice.pending callback by fixing a new invoice's currency. */
  const pendingCallback = async () => {
    const invoice = await createFixedInvoice(database.db, merchant.merchantId, "BTC");
    const [callback] = await callbacksOf(invoice.id);
    return { invoice, callback: callback! };
  };

  beforeAll(async () => {
    database = await createTestDatabase({ isPersistent: true });
    receiver = await startReceiver();
    merchant = await createMerchant(database.db, database.box, {
      name: "Hooks",
      email: "hooks@example.com",
      password: "long password 1",
    });
    await setCallbackUrl(database.db, {
      merchantId: merchant.merchantId,
      url: receiver.url(),
      mode: "sandbox",
    });
    settings = { mode: "sandbox", timeoutMs: 2_000, scheduleSeconds: [0, 0, 0, 0, 0], box: database.box };
  });
  afterEach(() => {
    receiver.received.length = 0;
    receiver.queue.length = 0;
  });
  afterAll(async () => {
    await receiver.close();
    await database.drop();
  });

  it("signs the exact bytes it sends with the merchant's key, and the body is the invoice callback", async () => {
    const { invoice, callback } = await pendingCallback();
    expect(callback.event).toBe("invoice.pending");
    await deliverAll();
    expect(receiver.received).toHaveLength(1);
    const [request] = receiver.received;
    expect(request!.headers["content-type"]).toBe("application/json");
    expect(request!.headers["x-processing-key"]).toBe(merchant.apiKey.key);
    const expected = createHmac("sha512", merchant.apiKey.secret).update(request!.body).digest("hex");
    expect(request!.headers["x-processing-signature"]).toBe(expected);
    expect(request!.headers["x-kassa-event"]).toBe("invoice.pending");
    const body = JSON.parse(request!.body.toString("utf8"));
    expect(body).toMatchObject({
      id: invoice.id,
      type: "invoice",
      status: "pending",
      foreign_id: invoice.foreignId,
    });
    expect(body.additional_details).toHaveProperty("remaining_amount");
    expect(body.additional_details).toHaveProperty("expires_at");
    expect((await callbacksOf(invoice.id))[0]!.status).toBe("delivered");
  });

  it("retries a failing receiver once after each failure, with the same body, until it succeeds", async () => {
    const { callback } = await pendingCallback();
    receiver.queue.push({ status: 500 }, { status: 503 }, { status: 404 }, { status: 200 });
    await deliverAll();
    expect(receiver.received).toHaveLength(4);
    expect(new Set(receiver.received.map((r) => r.body.toString())).size).toBe(1);
    const attempts = await attemptsOf(callback.id);
    expect(attempts.map((a) => a.httpStatus)).toEqual([500, 503, 404, 200]);
    expect(attempts.slice(0, 3).every((a) => a.error !== null)).toBe(true);
    const [after] = await database.db.select().from(callbacks).where(eq(callbacks.id, callback.id));
    expect(after).toMatchObject({ status: "delivered", attempts: 4 });
  });

  it("marks a callback failed once the schedule is used up: one attempt plus one per retry", async () => {
    const { callback } = await pendingCallback();
    receiver.queue.push({ status: 500 }, { status: 500 }, { status: 500 }, { status: 500 });
    await deliverAll({ scheduleSeconds: [0, 0] });
    expect(receiver.received).toHaveLength(3);
    const [failed] = await database.db.select().from(callbacks).where(eq(callbacks.id, callback.id));
    expect(failed).toMatchObject({ status: "failed", attempts: 3 });
  });

  it("does not follow redirects", async () => {
    const { callback } = await pendingCallback();
    receiver.queue.push({ status: 302, location: receiver.url("/elsewhere") });
    await deliverAll({ scheduleSeconds: [] });
    expect(receiver.received.map((r) => r.path)).toEqual(["/hook"]);
    const [attempt] = await attemptsOf(callback.id);
    expect(attempt).toMatchObject({
      httpStatus: 302,
      error: expect.stringMatching(/redirect .* not followed/),
    });
  });

  it("gives up on a slow receiver at the timeout and records it", async () => {
    const { callback } = await pendingCallback();
    receiver.queue.push({ status: 200, delayMs: 3_000 });
    await deliverAll({ timeoutMs: 300, scheduleSeconds: [] });
    const [attempt] = await attemptsOf(callback.id);
    expect(attempt!.error).toMatch(/timed out after 300 ms/);
    expect(attempt!.latencyMs).toBeLessThan(2_000);
  });

  it("refuses private and loopback destinations in production mode, when set and when sending", async () => {
    for (const url of [
      "http://shop.example/hook",
      "https://127.0.0.1/hook",
      "https://10.1.2.3/hook",
      "https://[::1]/hook",
      "https://localhost/hook",
    ]) {
      await expect(
        setCallbackUrl(database.db, { merchantId: merchant.merchantId, url, mode: "production" }),
        url,
      ).rejects.toMatchObject({ fields: { callback_url: expect.any(String) } });
    }
    const { callback } = await pendingCallback(); // queued for the loopback receiver (set in sandbox mode)
    await deliverAll({ mode: "production", scheduleSeconds: [] });
    expect(receiver.received).toHaveLength(0);
    const [attempt] = await attemptsOf(callback.id);
    expect(attempt!.error).toMatch(/refused/);
  });

  it("refuses, at connection time, a name that resolves to a private address", async () => {
    const { callback } = await pendingCallback();
    // Written past the policy (as if it had been saved while localhost resolved elsewhere): each
    // delivery goes to the merchant's URL of that moment, and checks where it connects.
    await database.db
      .update(merchants)
      .set({ callbackUrl: `https://localhost:${receiver.port}/hook` })
      .where(eq(merchants.id, merchant.merchantId));
    await deliverAll({ mode: "production", scheduleSeconds: [] });
    await setCallbackUrl(database.db, {
      merchantId: merchant.merchantId,
      url: receiver.url(),
      mode: "sandbox",
    });
    expect(receiver.received).toHaveLength(0);
    const [attempt] = await attemptsOf(callback.id);
    expect(attempt!.error).toMatch(/private or local/);
  });

  it("delivers the callbacks of one transaction in order, a later one waiting for an earlier retry", async () => {
    const invoice = await createFixedInvoice(database.db, merchant.merchantId, "BTC"); // invoice.pending
    await pay(database.db, invoice, invoice.invoice.senderAmount!); // invoice.processing
    receiver.queue.push({ status: 500 });
    const runner = startJobRunner({
      db: database.db,
      handlers: callbackHandlers({ ...settings, scheduleSeconds: [1] }),
      idleMs: 50,
      log: () => {},
    });
    await expect
      .poll(async () => (await callbacksOf(invoice.id)).map((c) => c.status), { timeout: 10_000 })
      .toEqual(["delivered", "delivered"]);
    await runner.stop();
    expect(receiver.received.map((r) => r.headers["x-kassa-event"])).toEqual([
      "invoice.pending",
      "invoice.pending",
      "invoice.processing",
    ]);
  });

  it("keeps a queued callback across a restart and delivers it afterwards", async () => {
    const invoice = await createFixedInvoice(database.db, merchant.merchantId, "ETH");
    database = await database.reopen(); // the process died after the commit, before any delivery
    await deliverAll();
    expect(receiver.received.map((r) => JSON.parse(r.body.toString()).id)).toEqual([invoice.id]);
  });

  it("resends with the same body and says it is a redelivery", async () => {
    const { callback } = await pendingCallback();
    await deliverAll();
    const copyId = await resendCallback(database.db, {
      merchantId: merchant.merchantId,
      callbackId: callback.id,
    });
    await deliverAll();
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1]!.body.equals(receiver.received[0]!.body)).toBe(true);
    expect(receiver.received[1]!.headers["x-kassa-redelivery-of"]).toBe(String(callback.id));
    expect(receiver.received[1]!.headers["x-kassa-callback-id"]).toBe(String(copyId));
    await expect(
      resendCallback(database.db, { merchantId: merchant.merchantId + 1000, callbackId: callback.id }),
    ).rejects.toMatchObject({
      code: "not_found",
    });
  });

  it("reports invoice, deposit and withdrawal events, and none when no URL is set", async () => {
    const invoice = await createFixedInvoice(database.db, merchant.merchantId, "LTC");
    await pay(database.db, invoice, invoice.invoice.senderAmount!);
    await confirm(database.db, "LTC");
    expect((await callbacksOf(invoice.id)).map((c) => c.event)).toEqual([
      "invoice.pending",
      "invoice.processing",
      "invoice.confirmed",
    ]);
    await deliverAll();

    const quiet = await createMerchant(database.db, database.box, {
      name: "Quiet",
      email: "quiet@example.com",
      password: "long password 1",
    });
    const silent = await createFixedInvoice(database.db, quiet.merchantId, "LTC");
    expect(await callbacksOf(silent.id)).toHaveLength(0);

    const override = await createInvoice(database.db, {
      merchantId: quiet.merchantId,
      request: invoiceRequest({ callback_url: receiver.url("/per-invoice"), sender_currency: "BTC" }),
      keys: testKeys,
      settings: invoiceSettings,
    });
    await inTransaction(database.db, (tx) =>
      queueCallback(tx, { transactionId: override.id, status: "cancelled" }),
    );
    await deliverAll();
    expect(receiver.received.at(-1)!.path).toBe("/per-invoice");
  });

  it("does not let one merchant's dead endpoint hold up another merchant's callbacks", async () => {
    const stalled = await startReceiver({ status: 200, delayMs: 4_000 });
    const slow = await createMerchant(database.db, database.box, {
      name: "Slow",
      email: "slow@example.com",
      password: "long password 1",
    });
    await setCallbackUrl(database.db, { merchantId: slow.merchantId, url: stalled.url(), mode: "sandbox" });
    for (let i = 0; i < 6; i++) await createFixedInvoice(database.db, slow.merchantId, "BTC");
    const { invoice } = await pendingCallback(); // the healthy merchant's callback, queued last
    const runner = startJobRunner({
      db: database.db,
      handlers: callbackHandlers({ ...settings, timeoutMs: 5_000, perMerchantLimit: 2 }),
      concurrency: 4,
      idleMs: 50,
      log: () => {},
    });
    await expect
      .poll(async () => (await callbacksOf(invoice.id))[0]!.status, { timeout: 10_000 })
      .toBe("delivered");
    // At that moment the slow merchant's endpoint has not answered anything yet.
    const slowAttempts = await database.db
      .select()
      .from(callbackAttempts)
      .where(eq(callbackAttempts.merchantId, slow.merchantId));
    expect(slowAttempts).toHaveLength(0);
    await runner.stop();
    await stalled.close();
  });
});
