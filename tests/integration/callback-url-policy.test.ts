import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CallbackSettings } from "@/lib/callbacks/callback-settings";
import { deliverCallback } from "@/lib/callbacks/deliver-callback";
import { setCallbackUrl } from "@/lib/callbacks/set-callback-url";
import { type CallbackMode, checkCallbackUrl } from "@/lib/callbacks/url-policy";
import { callbackAttempts, callbacks, merchants } from "@/lib/db/schema";
import { createMerchant } from "@/lib/merchants/create-merchant";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { createFixedInvoice } from "../support/invoices";
import { startReceiver } from "../support/receiver";

const isRefused = (url: string, mode: CallbackMode) => {
  try {
    checkCallbackUrl(url, mode);
    return false;
  } catch {
    return true;
  }
};

describe("the callback URL policy", () => {
  it("refuses every special-purpose range in production, IPv6 forms judged by the IPv4 address they carry", () => {
    const refused = [
      "https://169.254.169.254/",
      "https://10.1.2.3/",
      "https://100.64.0.1/",
      "https://192.0.0.9/",
      "https://255.255.255.255/",
      "https://[::10.0.0.1]/",
      "https://[::ffff:0:a00:1]/",
      "https://[::ffff:127.0.0.1]/",
      "https://[64:ff9b::a00:1]/",
      "https://[64:ff9b:1::808:808]/",
      "https://[2002:a00:1::]/",
      "https://[fec0::1]/",
      "https://[100::1]/",
      "https://[2001:10::1]/",
      "https://[2001::1]/",
      "https://[fd00::1]/",
      "https://[fe80::1]/",
    ];
    for (const url of refused) expect(isRefused(url, "production"), url).toBe(true);
    for (const url of ["https://8.8.8.8/", "https://[2001:4860:4860::8888]/", "https://[64:ff9b::808:808]/"])
      expect(isRefused(url, "production"), url).toBe(false);
  });

  it("allows loopback in sandbox mode and nothing else that is not public", () => {
    for (const url of [
      "http://169.254.169.254/latest/meta-data/",
      "http://10.0.0.5/",
      "http://192.168.1.1/",
      "http://172.16.0.1/",
      "http://[fd00::1]/",
      "http://[fe80::1]/",
      "http://[::ffff:169.254.169.254]/",
    ])
      expect(isRefused(url, "sandbox"), url).toBe(true);
    for (const url of ["http://127.0.0.1:8080/", "http://[::1]/", "https://8.8.8.8/"])
      expect(isRefused(url, "sandbox"), url).toBe(false);
  });
});

describe(`callback delivery to non-public targets on ${testDriver}`, () => {
  let database: TestDatabase;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let merchantId: number;
  let settings: CallbackSettings;

  /** A queued callback whose merchant URL is now `url`, written past the checks made when saving. */
  const pendingCallbackTo = async (url: string) => {
    const invoice = await createFixedInvoice(database.db, merchantId, "BTC");
    await database.db.update(merchants).set({ callbackUrl: url }).where(eq(merchants.id, merchantId));
    const [callback] = await database.db
      .select()
      .from(callbacks)
      .where(eq(callbacks.transactionId, invoice.id));
    return callback!;
  };
  const attemptsOf = (callbackId: number) =>
    database.db
      .select()
      .from(callbackAttempts)
      .where(eq(callbackAttempts.callbackId, callbackId))
      .orderBy(asc(callbackAttempts.id));

  beforeAll(async () => {
    database = await createTestDatabase();
    receiver = await startReceiver({ status: 200, body: "secret from inside the host" });
    ({ merchantId } = await createMerchant(database.db, database.box, {
      name: "Ssrf",
      email: "ssrf@example.com",
      password: "long password 1",
    }));
    await setCallbackUrl(database.db, { merchantId, url: receiver.url(), mode: "sandbox" });
    settings = { mode: "sandbox", timeoutMs: 2_000, scheduleSeconds: [], box: database.box };
  });
  afterAll(async () => {
    await receiver.close();
    await database.drop();
  });

  it("refuses to save a sandbox callback URL that points at metadata or private addresses", async () => {
    for (const url of ["http://169.254.169.254/", "http://10.0.0.5/hook", "http://[fd00::1]/hook"]) {
      await expect(
        setCallbackUrl(database.db, { merchantId, url, mode: "sandbox" }),
        url,
      ).rejects.toMatchObject({
        fields: { callback_url: expect.any(String) },
      });
    }
  });

  it("delivers to loopback in sandbox mode but keeps none of its answer", async () => {
    const callback = await pendingCallbackTo(receiver.url());
    await deliverCallback(database.db, callback.id, settings);
    expect(receiver.received).toHaveLength(1);
    const [attempt] = await attemptsOf(callback.id);
    expect(attempt).toMatchObject({ httpStatus: 200, error: null, responseExcerpt: null });
  });

  it("refuses at delivery a URL that is no longer allowed, without connecting", async () => {
    const callback = await pendingCallbackTo("http://169.254.169.254/latest/meta-data/");
    await deliverCallback(database.db, callback.id, settings);
    const [attempt] = await attemptsOf(callback.id);
    expect(attempt).toMatchObject({ httpStatus: null, responseExcerpt: null });
    expect(attempt!.error).toMatch(/refused/);
    expect(attempt!.latencyMs).toBeLessThan(100);
  });
});
