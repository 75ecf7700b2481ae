import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { POST as revokeKeyRoute } from "@/app/api/dashboard/api-keys/[id]/revoke/route";
import { PUT as chooseKeyRoute, GET as readKeyRoute } from "@/app/api/dashboard/callback-key/route";
import { POST as retryPendingRoute } from "@/app/api/dashboard/callbacks/retry-pending/route";
import { POST as testCallbackRoute } from "@/app/api/dashboard/callbacks/test/route";
import type { CallbackSettings } from "@/lib/callbacks/callback-settings";
import { SecretBox } from "@/lib/crypto/secret-box";
import { registerDatabase, unregisterDatabase } from "@/lib/db/client";
import { auditEntries, callbackAttempts, callbacks } from "@/lib/db/schema";
import { callbackHandlers } from "@/lib/host/job-handlers";
import { runDueJobs } from "@/lib/jobs/runner";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { startReceiver } from "../support/receiver";
import { expectSignedBy, makeSigningShop, type SigningShop } from "../support/signing-shop";

process.env.NEXTAUTH_SECRET = randomBytes(32).toString("hex");
const masterKey = randomBytes(32);

/**
 * The designated callback key on the Callbacks page, through the real routes: only an owner
 * chooses it, confirmed and audited; only an active key that may move money; the dashboard's
 * callbacks follow the choice; with no usable key a callback waits with a reason, never signed by
 * another key, and goes once an owner has chosen one.
 */
describe(`choosing the callback key on ${testDriver}`, () => {
  let database: TestDatabase;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let settings: CallbackSettings;
  let shopCount = 0;

  const deliverAll = () => runDueJobs(database.db, callbackHandlers(settings));
  const receivedFor = (transactionId: number) =>
    receiver.received.filter((r) => JSON.parse(r.body.toString("utf8")).id === transactionId);
  const shop = () =>
    makeSigningShop(database, new SecretBox(masterKey), {
      name: `Chooser${++shopCount}`,
      callbackUrl: receiver.url(),
    });
  const choose = (s: SigningShop, role: "owner" | "admin" | "developer", body: Record<string, unknown>) =>
    s.dashboard(chooseKeyRoute, { role, method: "PUT", body });

  beforeAll(async () => {
    process.env.KASSA_MASTER_KEY = masterKey.toString("hex");
    process.env.KASSA_MODE = "sandbox";
    database = await createTestDatabase();
    registerDatabase(database);
    receiver = await startReceiver();
    settings = { mode: "sandbox", timeoutMs: 2_000, scheduleSeconds: [3600], box: new SecretBox(masterKey) };
  });
  afterEach(() => {
    receiver.received.length = 0;
  });
  afterAll(async () => {
    await receiver.close();
    unregisterDatabase();
    await database.drop();
  });

  it("lets only an owner choose, confirmed and audited, and the dashboard's callbacks follow the choice", async () => {
    const s = await shop();
    const chosen = await s.createKey("owner", "callbacks");
    const developerKey = await s.createKey("developer", "dev");
    // Everyone on the Callbacks page sees which key signs; it is the first full key until chosen.
    const seen = await s.dashboard(readKeyRoute, { role: "developer", method: "GET" });
    expect(seen.status).toBe(200);
    expect(seen.body).toMatchObject({
      signing: { id: s.defaultKey.id, key: s.defaultKey.key },
      problem: null,
      candidates: [
        { id: chosen.id, key: chosen.key },
        { id: s.defaultKey.id, key: s.defaultKey.key },
      ],
    });

    for (const role of ["admin", "developer"] as const)
      expect(await choose(s, role, { key_id: chosen.id })).toEqual({
        status: 403,
        body: {
          error: `Your role (${role}) does not allow this. Ask an owner or an admin of your team.`,
          code: "forbidden",
        },
      });
    const noMoney = await choose(s, "owner", { key_id: developerKey.id });
    expect(noMoney.status).toBe(400);
    expect(noMoney.body).toMatchObject({ fields: { key_id: expect.stringContaining("may not move money") } });
    const otherShop = await shop();
    const foreign = await choose(s, "owner", { key_id: otherShop.defaultKey.id });
    expect(foreign.status).toBe(400);
    expect(foreign.body).toMatchObject({ fields: { key_id: "Choose one of your active API keys." } });

    const before = await s.dashboardInvoice();
    expect(await choose(s, "owner", { key_id: chosen.id })).toEqual({
      status: 200,
      body: { callback_key: { id: chosen.id, key: chosen.key, label: "callbacks" } },
    });
    const audit = await database.db
      .select({ action: auditEntries.action, detail: auditEntries.detail, userId: auditEntries.userId })
      .from(auditEntries)
      .where(and(eq(auditEntries.merchantId, s.merchantId), eq(auditEntries.action, "callback_key_changed")));
    expect(audit).toEqual([
      { action: "callback_key_changed", detail: `${chosen.key} (callbacks)`, userId: s.ownerId },
    ]);

    // Both the callback queued before the choice and one after are signed by the chosen key now,
    // and so is a test callback.
    const after = await s.dashboardInvoice();
    await deliverAll();
    expectSignedBy(receivedFor(before)[0]!, chosen);
    expectSignedBy(receivedFor(after)[0]!, chosen);
    const test = await s.dashboard(testCallbackRoute, { body: {} });
    expect(test.body).toMatchObject({ delivered: true });
    const testRequest = receiver.received.find((r) => r.headers["x-kassa-event"] === "test");
    expectSignedBy(testRequest!, chosen);
  });

  it("holds a callback with a reason when the callback key is revoked, and sends it once an owner chooses another", async () => {
    const s = await shop();
    const spare = await s.createKey("owner", "spare");
    const revoked = await s.dashboard(revokeKeyRoute, { id: s.defaultKey.id, body: {} });
    expect(revoked.status).toBe(200);
    const state = await s.dashboard(readKeyRoute, { method: "GET" });
    expect(state.body).toMatchObject({
      chosen: { id: s.defaultKey.id, is_revoked: true },
      signing: null,
      problem: "revoked",
      candidates: [{ id: spare.id }],
    });

    const invoiceId = await s.dashboardInvoice();
    await deliverAll();
    // Not signed by the spare key instead: not sent at all, with the reason on the attempt.
    expect(receivedFor(invoiceId)).toEqual([]);
    const [held] = await database.db.select().from(callbacks).where(eq(callbacks.transactionId, invoiceId));
    expect(held).toMatchObject({ status: "queued", attempts: 1 });
    const attempts = await database.db
      .select({ error: callbackAttempts.error, httpStatus: callbackAttempts.httpStatus })
      .from(callbackAttempts)
      .where(eq(callbackAttempts.callbackId, held!.id));
    expect(attempts).toEqual([
      { error: "no signing key: the callback key is revoked or expired", httpStatus: null },
    ]);

    expect((await choose(s, "owner", { key_id: spare.id })).status).toBe(200);
    expect((await s.dashboard(retryPendingRoute, { body: {} })).body).toEqual({ retried: 1 });
    await deliverAll();
    expectSignedBy(receivedFor(invoiceId)[0]!, spare);
    const [delivered] = await database.db.select().from(callbacks).where(eq(callbacks.id, held!.id));
    expect(delivered!.status).toBe("delivered");
  });
});
