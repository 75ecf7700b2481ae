import { createHmac } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { CallbackSettings } from "@/lib/callbacks/callback-settings";
import { deliverCallback } from "@/lib/callbacks/deliver-callback";
import { listCallbacks } from "@/lib/callbacks/list-callbacks";
import { resendCallback } from "@/lib/callbacks/resend-callback";
import { retryPendingCallbacks } from "@/lib/callbacks/retry-pending-callbacks";
import { sendTestCallback } from "@/lib/callbacks/send-test-callback";
import { setCallbackUrl } from "@/lib/callbacks/set-callback-url";
import { callbackAttempts, callbacks } from "@/lib/db/schema";
import { callbackHandlers } from "@/lib/host/job-handlers";
import { runDueJobs } from "@/lib/jobs/runner";
import { createMerchant } from "@/lib/merchants/create-merchant";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { confirm, createFixedInvoice, pay } from "../support/invoices";
import { startReceiver } from "../support/receiver";

/**
 * A merchant recovers from a broken callback URL: the callback URL points at a failing endpoint, an invoice is paid, the
 * merchant fixes the URL and asks for the callbacks again. Two real receivers play the broken and
 * the fixed endpoint. Retries are an hour apart, so anything delivered here was sent because of
 * the URL change, a resend or a retry-all, never because a backoff ran out.
 */
describe(`recovering callbacks after a broken callback URL on ${testDriver}`, () => {
  let database: TestDatabase;
  let broken: Awaited<ReturnType<typeof startReceiver>>;
  let fixed: Awaited<ReturnType<typeof startReceiver>>;
  let merchant: Awaited<ReturnType<typeof createMerchant>>;
  let settings: CallbackSettings;

  const deliverDue = () => runDueJobs(database.db, callbackHandlers(settings));
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
  const pointAt = (url: string) =>
    setCallbackUrl(database.db, { merchantId: merchant.merchantId, url, mode: "sandbox" });
  const events = (receiver: typeof fixed) => receiver.received.map((r) => r.headers["x-kassa-event"]);

  /** An invoice paid while the URL is broken: its pending callback failed once, processing waits behind it. */
  const paidWhileBroken = async (currency = "BTC") => {
    await pointAt(broken.url());
    const invoice = await createFixedInvoice(database.db, merchant.merchantId, currency);
    await deliverDue();
    await pay(database.db, invoice, invoice.invoice.senderAmount!);
    await deliverDue();
    const [pending, processing] = await callbacksOf(invoice.id);
    return { invoice, pending: pending!, processing: processing! };
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    broken = await startReceiver({ status: 500, body: "boom" });
    fixed = await startReceiver({ status: 200, body: "ok" });
    merchant = await createMerchant(database.db, database.box, {
      name: "Recover",
      email: "recover@example.com",
      password: "long password 1",
    });
    settings = { mode: "sandbox", timeoutMs: 2_000, scheduleSeconds: [3600, 3600], box: database.box };
  });
  beforeEach(async () => {
    // Nothing of an earlier test may still be queued for this merchant.
    await database.db
      .update(callbacks)
      .set({ status: "failed" })
      .where(eq(callbacks.merchantId, merchant.merchantId));
  });
  afterEach(() => {
    for (const receiver of [broken, fixed]) receiver.received.length = 0;
  });
  afterAll(async () => {
    await broken.close();
    await fixed.close();
    await database.drop();
  });

  it("shows the later callback waiting for the failing one, not a retry time that has passed", async () => {
    const { pending, processing } = await paidWhileBroken();
    expect(events(broken)).toEqual(["invoice.pending"]);
    expect(pending).toMatchObject({ status: "queued", attempts: 1 });
    expect(pending.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() + 3500_000);

    const log = await listCallbacks(database.db, { merchantId: merchant.merchantId });
    const [shownProcessing, shownPending] = log.callbacks;
    expect(shownProcessing).toMatchObject({
      id: processing.id,
      status: "queued",
      attempts: 0,
      next_attempt_at: null,
      is_due: false,
      waiting_for: { id: pending.id, event: "invoice.pending" },
    });
    expect(shownPending).toMatchObject({
      id: pending.id,
      waiting_for: null,
      next_attempt_at: pending.nextAttemptAt.toISOString(),
      is_due: false,
      url: broken.url(),
    });
    expect(shownPending!.attempt_log).toEqual([
      expect.objectContaining({ url: broken.url(), http_status: 500, error: "HTTP 500" }),
    ]);
    expect(log.pending_count).toBe(2);
  });

  it("after the URL is fixed, retry-all sends everything pending to the new URL at once, in order", async () => {
    const { invoice, pending, processing } = await paidWhileBroken();
    await pointAt(fixed.url("/fixed"));
    // Saving the URL already changes where the next try goes, before anything is retried.
    const before = await listCallbacks(database.db, { merchantId: merchant.merchantId });
    expect(before.callbacks.find((c) => c.id === pending.id)!.url).toBe(fixed.url("/fixed"));

    expect(await retryPendingCallbacks(database.db, { merchantId: merchant.merchantId })).toBe(2);
    await deliverDue();
    expect(fixed.received.map((r) => r.path)).toEqual(["/fixed", "/fixed"]);
    expect(events(fixed)).toEqual(["invoice.pending", "invoice.processing"]);
    expect(broken.received).toHaveLength(1); // only the first attempt, before the fix
    expect((await callbacksOf(invoice.id)).map((c) => c.status)).toEqual(["delivered", "delivered"]);

    // Each attempt is on record with where it went, what came back and how long it took.
    const attempts = await attemptsOf(pending.id);
    expect(attempts.map((a) => [a.url, a.httpStatus, a.error])).toEqual([
      [broken.url(), 500, "HTTP 500"],
      [fixed.url("/fixed"), 200, null],
    ]);
    for (const attempt of attempts) {
      expect(attempt.latencyMs).toBeGreaterThanOrEqual(0);
      expect(attempt.latencyMs).toBeLessThan(settings.timeoutMs);
      // Loopback receivers: their answers are never kept (url-policy.ts).
      expect(attempt.responseExcerpt).toBeNull();
    }
    expect((await attemptsOf(processing.id)).map((a) => a.url)).toEqual([fixed.url("/fixed")]);
    // The signature still verifies with the merchant's secret.
    for (const request of fixed.received) {
      expect(request.headers["x-processing-signature"]).toBe(
        createHmac("sha512", merchant.apiKey.secret).update(request.body).digest("hex"),
      );
    }
  });

  it("the retry an hour out that retry-all overtook sends nothing when its time comes", async () => {
    const { pending } = await paidWhileBroken();
    const staleVersion = pending.scheduleVersion;
    await pointAt(fixed.url());
    await retryPendingCallbacks(database.db, { merchantId: merchant.merchantId });
    await deliverDue();
    expect(fixed.received).toHaveLength(2);
    // The job queued for the old schedule, run as if its hour had passed.
    await deliverCallback(database.db, { callbackId: pending.id, version: staleVersion }, settings);
    expect(fixed.received).toHaveLength(2);
    expect(await attemptsOf(pending.id)).toHaveLength(2);
  });

  it("resend of a callback still being retried sends it at once, to the URL configured now", async () => {
    const { pending, processing } = await paidWhileBroken();
    await pointAt(fixed.url());
    const resent = await resendCallback(database.db, {
      merchantId: merchant.merchantId,
      callbackId: pending.id,
    });
    expect(resent).toBe(pending.id); // pulled forward, not copied
    await deliverDue();
    // The pending callback went now, and the processing one that waited for it right after.
    expect(events(fixed)).toEqual(["invoice.pending", "invoice.processing"]);
    expect(fixed.received[0]!.headers["x-kassa-callback-id"]).toBe(String(pending.id));
    expect(fixed.received[0]!.headers["x-kassa-redelivery-of"]).toBeUndefined();
    const [after] = await database.db.select().from(callbacks).where(eq(callbacks.id, processing.id));
    expect(after).toMatchObject({ status: "delivered", attempts: 1 });
  });

  it("resend of a callback waiting behind a failing one sends it now; the failing one keeps its schedule", async () => {
    const { pending, processing } = await paidWhileBroken();
    await resendCallback(database.db, { merchantId: merchant.merchantId, callbackId: processing.id });
    await deliverDue();
    expect(events(broken)).toEqual(["invoice.pending", "invoice.processing"]);
    const [afterPending] = await database.db.select().from(callbacks).where(eq(callbacks.id, pending.id));
    expect(afterPending).toMatchObject({ status: "queued", attempts: 1 });
    const [afterProcessing] = await database.db
      .select()
      .from(callbacks)
      .where(eq(callbacks.id, processing.id));
    expect(afterProcessing).toMatchObject({ status: "queued", attempts: 1 });
  });

  it("resend of a delivered callback is a redelivery due at once, through the same signed path", async () => {
    await pointAt(fixed.url());
    const invoice = await createFixedInvoice(database.db, merchant.merchantId, "LTC");
    await deliverDue();
    const [original] = await callbacksOf(invoice.id);
    expect(original!.status).toBe("delivered");
    await pointAt(fixed.url("/moved"));
    const copyId = await resendCallback(database.db, {
      merchantId: merchant.merchantId,
      transactionId: invoice.id,
    });
    expect(copyId).not.toBe(original!.id);
    await deliverDue();
    expect(fixed.received.map((r) => r.path)).toEqual(["/hook", "/moved"]);
    expect(fixed.received[1]!.body.equals(fixed.received[0]!.body)).toBe(true);
    expect(fixed.received[1]!.headers["x-kassa-redelivery-of"]).toBe(String(original!.id));
    expect(fixed.received[1]!.headers["x-processing-signature"]).toBe(
      createHmac("sha512", merchant.apiKey.secret).update(fixed.received[1]!.body).digest("hex"),
    );
  });

  it("a later callback goes as soon as the one it waited for is delivered, without a retry-all", async () => {
    // LTC: no other test's payment is confirmed along with it.
    const { invoice, pending } = await paidWhileBroken("LTC");
    await confirm(database.db, "LTC"); // invoice.confirmed, a third callback waiting
    await deliverDue();
    expect(broken.received).toHaveLength(1);
    await pointAt(fixed.url());
    // Only the failing callback is resent; the two behind it follow on their own, in order.
    await resendCallback(database.db, { merchantId: merchant.merchantId, callbackId: pending.id });
    await deliverDue();
    expect(events(fixed)).toEqual(["invoice.pending", "invoice.processing", "invoice.confirmed"]);
    expect((await callbacksOf(invoice.id)).map((c) => c.status)).toEqual([
      "delivered",
      "delivered",
      "delivered",
    ]);
  });

  it("keeps an invoice's own callback_url: the merchant's setting does not redirect it", async () => {
    await pointAt(fixed.url("/merchant"));
    const own = await createFixedInvoice(database.db, merchant.merchantId, "BTC", {
      callback_url: fixed.url("/own"),
    });
    await deliverDue();
    expect(fixed.received.map((r) => r.path)).toEqual(["/own"]);
    const log = await listCallbacks(database.db, { merchantId: merchant.merchantId });
    expect(log.callbacks.find((c) => c.transaction_id === own.id)).toMatchObject({
      url: fixed.url("/own"),
      is_invoice_url: true,
    });
  });

  it("retry-all touches only the signed-in merchant's callbacks", async () => {
    const other = await createMerchant(database.db, database.box, {
      name: "Other",
      email: "other-recover@example.com",
      password: "long password 1",
    });
    await setCallbackUrl(database.db, { merchantId: other.merchantId, url: broken.url(), mode: "sandbox" });
    const theirs = await createFixedInvoice(database.db, other.merchantId, "BTC");
    await deliverDue();
    const [before] = await callbacksOf(theirs.id);
    expect(await retryPendingCallbacks(database.db, { merchantId: merchant.merchantId })).toBe(0);
    const [after] = await callbacksOf(theirs.id);
    expect(after).toMatchObject({
      status: "queued",
      attempts: 1,
      scheduleVersion: before!.scheduleVersion,
      nextAttemptAt: before!.nextAttemptAt,
    });
  });

  it("sends a signed test callback of the documented shape to the saved URL and answers at once", async () => {
    await pointAt(fixed.url("/test"));
    const result = await sendTestCallback(database.db, { merchantId: merchant.merchantId, settings });
    expect(result).toMatchObject({
      url: fixed.url("/test"),
      delivered: true,
      http_status: 200,
      error: null,
      response_excerpt: null,
    });
    expect(fixed.received).toHaveLength(1);
    const [request] = fixed.received;
    expect(request!.body.toString()).toBe(result.body);
    expect(request!.headers["x-kassa-event"]).toBe("test");
    expect(request!.headers["x-processing-key"]).toBe(merchant.apiKey.key);
    expect(request!.headers["x-processing-signature"]).toBe(
      createHmac("sha512", merchant.apiKey.secret).update(request!.body).digest("hex"),
    );
    expect(JSON.parse(result.body)).toEqual({
      type: "test",
      status: "test",
      message: expect.stringContaining("X-Processing-Signature"),
      sent_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    // Not a transaction's callback: nothing is added to the delivery log.
    const log = await listCallbacks(database.db, { merchantId: merchant.merchantId });
    expect(log.callbacks.some((c) => c.event === "test")).toBe(false);

    await pointAt(broken.url());
    const failed = await sendTestCallback(database.db, { merchantId: merchant.merchantId, settings });
    expect(failed).toMatchObject({ delivered: false, http_status: 500, error: "HTTP 500" });

    await setCallbackUrl(database.db, { merchantId: merchant.merchantId, url: null, mode: "sandbox" });
    await expect(
      sendTestCallback(database.db, { merchantId: merchant.merchantId, settings }),
    ).rejects.toMatchObject({
      fields: { callback_url: expect.stringContaining("Save a callback URL first") },
    });
  });
});
