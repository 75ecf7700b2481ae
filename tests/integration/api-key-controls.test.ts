import { createHmac, randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as listAccountsRoute } from "@/app/api/v2/accounts/list/route";
import { requestContextStorage } from "@/lib/api/request-context";
import { findActiveKey } from "@/lib/api-keys/find-active-key";
import { rollApiKey } from "@/lib/api-keys/roll-api-key";
import { setKeyAllowlist } from "@/lib/api-keys/set-key-allowlist";
import type { AuditActor } from "@/lib/audit/record-audit-entry";
import { SecretBox } from "@/lib/crypto/secret-box";
import { registerDatabase, unregisterDatabase } from "@/lib/db/client";
import { apiKeys, auditEntries } from "@/lib/db/schema";
import { createMerchant } from "@/lib/merchants/create-merchant";
import { testClock } from "../support/clock";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { fieldsOf } from "../support/merchants";
import { waitUntil } from "../support/wait";

/**
 * API key controls through the real signed route and wrapper: the allowlist judged on the client
 * address the request context and KASSA_TRUSTED_PROXIES give, the last-used address, and a roll
 * whose old key stops at the end of its overlap.
 */
describe(`API key controls on ${testDriver}`, () => {
  let database: TestDatabase;
  const masterKey = randomBytes(32);
  const box = new SecretBox(masterKey);
  type Caller = { merchantId: number; userId: number; keyId: number; key: string; secret: string };
  let shop: Caller;
  let actor: AuditActor;

  async function caller(name: string): Promise<Caller> {
    const created = await createMerchant(database.db, box, {
      name,
      email: `${name.toLowerCase()}-${randomBytes(4).toString("hex")}@example.com`,
      password: "long password 1",
    });
    const [row] = await database.db
      .select({ id: apiKeys.id })
      .from(apiKeys)
      .where(eq(apiKeys.key, created.apiKey.key));
    return {
      merchantId: created.merchantId,
      userId: created.userId,
      keyId: row!.id,
      key: created.apiKey.key,
      secret: created.apiKey.secret,
    };
  }

  /** accounts/list signed with `as`, arriving from `peer` (the socket's address) with an optional X-Forwarded-For. */
  async function listAccounts(input: {
    as: { key: string; secret: string };
    peer: string;
    forwardedFor?: string;
    /** A signature to send instead of the right one. */
    signature?: string;
  }) {
    const body = "{}";
    const headers: Record<string, string> = {
      "content-type": "application/json",
      "x-processing-key": input.as.key,
      "x-processing-signature":
        input.signature ?? createHmac("sha512", input.as.secret).update(body).digest("hex"),
    };
    if (input.forwardedFor) headers["x-forwarded-for"] = input.forwardedFor;
    const response = await requestContextStorage().run({ requestId: "test", peerAddress: input.peer }, () =>
      listAccountsRoute(
        new Request("http://kassa.test/api/v2/accounts/list", { method: "POST", headers, body }),
        {
          params: Promise.resolve({}),
        },
      ),
    );
    return { status: response.status, body: (await response.json()) as unknown };
  }

  const allow = (entries: string[], who: Caller = shop) =>
    setKeyAllowlist(database.db, {
      merchantId: who.merchantId,
      keyId: who.keyId,
      entries,
      actor,
      address: "192.0.2.7",
    });

  const BAD_KEY = { error: "Bad key header", code: "bad_header_key" };

  beforeAll(async () => {
    process.env.KASSA_MASTER_KEY = masterKey.toString("hex");
    process.env.KASSA_MODE = "sandbox";
    // The proxy in front: its X-Forwarded-For is believed; anyone else's is not.
    process.env.KASSA_TRUSTED_PROXIES = "10.9.0.1, fd00:9::/64";
    database = await createTestDatabase();
    registerDatabase(database);
    shop = await caller("Shop");
    actor = { kind: "user", userId: shop.userId, email: "owner@shop.test" };
  });

  afterAll(async () => {
    unregisterDatabase();
    await database.drop();
  });

  it("without an allowlist serves any address", async () => {
    expect((await listAccounts({ as: shop, peer: "203.0.113.50" })).status).toBe(200);
  });

  it("serves an IPv4 address inside the allowlist and refuses one outside with the public bad-key 403", async () => {
    expect(await allow(["198.51.100.0/24", "2001:db8:1::/48"])).toEqual([
      "198.51.100.0/24",
      "2001:db8:1::/48",
    ]);
    expect((await listAccounts({ as: shop, peer: "198.51.100.23" })).status).toBe(200);
    // How Node reports an IPv4 peer on a dual-stack socket.
    expect((await listAccounts({ as: shop, peer: "::ffff:198.51.100.200" })).status).toBe(200);
    expect(await listAccounts({ as: shop, peer: "198.51.101.1" })).toEqual({ status: 403, body: BAD_KEY });
  });

  it("judges the allowlist before the signature: outside it a wrong signature gets the same bad-key 403", async () => {
    await allow(["198.51.100.0/24"]);
    const wrong = createHmac("sha512", "not the secret").update("{}").digest("hex");
    // Outside the list the caller learns nothing of its signature: right or wrong, the same answer.
    expect(await listAccounts({ as: shop, peer: "203.0.113.77", signature: wrong })).toEqual({
      status: 403,
      body: BAD_KEY,
    });
    expect(await listAccounts({ as: shop, peer: "203.0.113.77" })).toEqual({ status: 403, body: BAD_KEY });
    // Inside it, a wrong signature is told apart, as the public API does.
    expect(await listAccounts({ as: shop, peer: "198.51.100.23", signature: wrong })).toEqual({
      status: 403,
      body: { error: "Bad signature header", code: "bad_header_signature" },
    });
    await allow(["198.51.100.0/24", "2001:db8:1::/48"]);
  });

  it("judges IPv6 addresses against IPv6 ranges", async () => {
    expect((await listAccounts({ as: shop, peer: "2001:db8:1:ffff::9" })).status).toBe(200);
    expect(await listAccounts({ as: shop, peer: "2001:db8:2::9" })).toEqual({ status: 403, body: BAD_KEY });
  });

  it("believes X-Forwarded-For only from a trusted proxy", async () => {
    // Through the proxy: the client it names is judged, not the proxy.
    expect((await listAccounts({ as: shop, peer: "10.9.0.1", forwardedFor: "198.51.100.9" })).status).toBe(
      200,
    );
    expect(await listAccounts({ as: shop, peer: "10.9.0.1", forwardedFor: "203.0.113.9" })).toEqual({
      status: 403,
      body: BAD_KEY,
    });
    expect((await listAccounts({ as: shop, peer: "fd00:9::2", forwardedFor: "2001:db8:1::5" })).status).toBe(
      200,
    );
    // From anyone else the header is the client's own claim, and ignored.
    expect(await listAccounts({ as: shop, peer: "203.0.113.9", forwardedFor: "198.51.100.9" })).toEqual({
      status: 403,
      body: BAD_KEY,
    });
  });

  it("records the last-used address of the key", async () => {
    const other = await caller("Touched");
    expect((await listAccounts({ as: other, peer: "2001:db8:77::1" })).status).toBe(200);
    // The use is recorded after the answer, off the request's path.
    await waitUntil(
      async () => {
        const [row] = await database.db
          .select({ ip: apiKeys.lastUsedIp, at: apiKeys.lastUsedAt })
          .from(apiKeys)
          .where(eq(apiKeys.id, other.keyId));
        return row?.ip === "2001:db8:77::1" && row.at !== null;
      },
      { what: "the key's last use is recorded with its address" },
    );
  });

  it("stores ranges in canonical form, refuses what is not an address, and an empty list allows any address", async () => {
    const other = await caller("Canonical");
    expect(await allow(["10.1.2.3/8, 192.0.2.1", "2001:DB8::1"], other)).toEqual([
      "10.0.0.0/8",
      "192.0.2.1/32",
      "2001:db8::1/128",
    ]);
    expect(await fieldsOf(allow(["10.0.0.0/33"], other))).toEqual({
      allowed_ips: '"10.0.0.0/33" is not an IP address or CIDR range.',
    });
    expect(await fieldsOf(allow(["example.com"], other))).toHaveProperty("allowed_ips");
    expect(await allow([" "], other)).toBeNull();
    expect((await listAccounts({ as: other, peer: "203.0.113.1" })).status).toBe(200);
  });

  it("does not let a merchant change another merchant's key", async () => {
    const other = await caller("Stranger");
    await expect(
      setKeyAllowlist(database.db, {
        merchantId: other.merchantId,
        keyId: shop.keyId,
        entries: ["10.0.0.0/8"],
        actor,
        address: "192.0.2.7",
      }),
    ).rejects.toMatchObject({ code: "not_found" });
  });

  it("rolls a key: the new pair works at once, the old one until the overlap ends, then like a revoked key", async () => {
    const rolling = await caller("Rolling");
    await allow(["198.51.100.0/24"], rolling);
    const clock = testClock();
    const rolled = await rollApiKey(database.db, box, {
      merchantId: rolling.merchantId,
      keyId: rolling.keyId,
      overlapSeconds: 3600,
      createdBy: rolling.userId,
      mayMoveMoney: true,
      actor,
      address: "192.0.2.7",
      clock,
    });
    expect(rolled.key).not.toBe(rolling.key);
    expect(rolled.replacedKey).toBe(rolling.key);
    expect(rolled.replacedUntil.getTime() - clock.now().getTime()).toBeLessThanOrEqual(3600_000);

    // The new key carries the old one's allowlist.
    const fresh = await findActiveKey(database.db, box, rolled.key, clock);
    expect(fresh).toMatchObject({ merchantId: rolling.merchantId, secret: rolled.secret });
    expect(fresh!.allowedIps).toEqual(["198.51.100.0/24"]);
    expect(await findActiveKey(database.db, box, rolling.key, clock)).toMatchObject({
      secret: rolling.secret,
    });

    clock.advance(3599);
    expect(await findActiveKey(database.db, box, rolling.key, clock)).toBeDefined();
    clock.advance(2);
    expect(await findActiveKey(database.db, box, rolling.key, clock)).toBeUndefined();
    expect(await findActiveKey(database.db, box, rolled.key, clock)).toBeDefined();

    // A rolled key is on its way out: it is not rolled again.
    await expect(
      rollApiKey(database.db, box, {
        merchantId: rolling.merchantId,
        keyId: rolling.keyId,
        overlapSeconds: 60,
        createdBy: rolling.userId,
        mayMoveMoney: true,
        actor,
        address: "192.0.2.7",
        clock,
      }),
    ).rejects.toMatchObject({ code: "not_found" });
  });

  it("serves the old key through the route during the overlap and the new one after a zero overlap", async () => {
    const rolling = await caller("Instant");
    const rolled = await rollApiKey(database.db, box, {
      merchantId: rolling.merchantId,
      keyId: rolling.keyId,
      overlapSeconds: 0,
      createdBy: rolling.userId,
      mayMoveMoney: true,
      actor,
      address: "192.0.2.7",
    });
    expect(await listAccounts({ as: rolling, peer: "203.0.113.1" })).toEqual({ status: 403, body: BAD_KEY });
    expect(
      (await listAccounts({ as: { key: rolled.key, secret: rolled.secret }, peer: "203.0.113.1" })).status,
    ).toBe(200);
  });

  it("records each allowlist change and roll in the merchant's audit trail", async () => {
    const audited = await caller("Audited");
    await allow(["10.0.0.0/8"], audited);
    const rolled = await rollApiKey(database.db, box, {
      merchantId: audited.merchantId,
      keyId: audited.keyId,
      overlapSeconds: 60,
      createdBy: audited.userId,
      mayMoveMoney: true,
      actor,
      address: "2001:db8::5",
    });
    const rows = await database.db
      .select()
      .from(auditEntries)
      .where(eq(auditEntries.merchantId, audited.merchantId))
      .orderBy(auditEntries.id);
    expect(rows.map((r) => [r.action, r.actor, r.userId, r.detail.split(" ")[0]])).toEqual([
      ["api_key_allowlist_changed", "owner@shop.test", shop.userId, `${audited.key}:`],
      ["api_key_rolled", "owner@shop.test", shop.userId, audited.key],
    ]);
    expect(rows[0]!.detail).toBe(`${audited.key}: 10.0.0.0/8`);
    expect(rows[1]!.detail).toContain(rolled.key);
    expect(rows[1]!.address).toBe("2001:db8::5");
  });
});
