import { createHmac, randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { encode } from "next-auth/jwt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as rollKeyRoute } from "@/app/api/dashboard/api-keys/[id]/roll/route";
import { POST as createKeyRoute, GET as listKeysRoute } from "@/app/api/dashboard/api-keys/route";
import { POST as listAccountsRoute } from "@/app/api/v2/accounts/list/route";
import { POST as instantWithdrawalRoute } from "@/app/api/v2/crypto/withdrawal_instant/route";
import { POST as exchangeFixedRoute } from "@/app/api/v2/exchange/fixed/route";
import { POST as exchangeNowRoute } from "@/app/api/v2/exchange/now/route";
import { POST as withdrawalRoute } from "@/app/api/v2/withdrawal/crypto/route";
import { requestContextStorage } from "@/lib/api/request-context";
import { openStepUpWindow } from "@/lib/auth/open-step-up-window";
import { SecretBox } from "@/lib/crypto/secret-box";
import { registerDatabase, unregisterDatabase } from "@/lib/db/client";
import { apiKeys, users } from "@/lib/db/schema";
import { createMerchant, hashPassword } from "@/lib/merchants/create-merchant";
import type { Role } from "@/lib/team/permissions";
import { removeMember } from "@/lib/team/remove-member";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";

process.env.NEXTAUTH_SECRET = randomBytes(32).toString("hex");
const masterKey = randomBytes(32);
const PASSWORD = "long password 1";
/** The answer docs/security.md ("Key scope") documents for a key without the money scope. */
const NO_MONEY_SCOPE = {
  error:
    "This API key may not move money (withdrawals, exchanges). Create a key that may, as a member who may create payouts.",
  code: "bad_header_key",
};

type Pair = { key: string; secret: string };
type Member = { userId: number; email: string; cookie: string };

/**
 * Key scopes through the real routes: a developer manages keys but cannot create (or roll into)
 * one that moves money, and such a key gets the public API's bad-key 403 on withdrawals and
 * exchanges while everything else works; keys name their creator and outlive a removed member.
 */
describe(`API key scopes by role on ${testDriver}`, () => {
  let database: TestDatabase;
  let merchantId: number;
  let ownerKey: Pair;
  const members = new Map<Role, Member>();

  beforeAll(async () => {
    process.env.KASSA_MASTER_KEY = masterKey.toString("hex");
    process.env.KASSA_MODE = "sandbox";
    database = await createTestDatabase();
    registerDatabase(database);
    const created = await createMerchant(database.db, new SecretBox(masterKey), {
      name: "Scopes",
      email: "owner@scopes.test",
      password: PASSWORD,
    });
    merchantId = created.merchantId;
    ownerKey = { key: created.apiKey!.key, secret: created.apiKey!.secret };
    const passwordHash = await hashPassword(PASSWORD);
    for (const role of ["admin", "developer"] as const) {
      const email = `${role}@scopes.test`;
      const [user] = await database.db
        .insert(users)
        .values({ merchantId, email, passwordHash, role })
        .returning({ id: users.id });
      const sessionId = `scopes-${role}`;
      const token = { sub: String(user!.id), email, merchantId, sessionVersion: 0, sessionId };
      const value = await encode({ token, secret: process.env.NEXTAUTH_SECRET! });
      // Key changes are confirmed: each member's session confirmed just now (lib/auth/open-step-up-window.ts).
      await openStepUpWindow(database.db, { sessionId, userId: user!.id });
      members.set(role, { userId: user!.id, email, cookie: `next-auth.session-token=${value}` });
    }
  });
  afterAll(async () => {
    unregisterDatabase();
    await database.drop();
  });

  /** A dashboard route called by a signed-in `role`, from the dashboard's own origin. */
  async function dashboard(
    handler: typeof createKeyRoute,
    input: { role: Role; path: string; method?: string; body?: unknown; id?: string },
  ) {
    const response = await handler(
      new Request(`http://kassa.test/api/dashboard/${input.path}`, {
        method: input.method ?? "POST",
        headers: {
          host: "kassa.test",
          origin: "http://kassa.test",
          cookie: members.get(input.role)!.cookie,
          "content-type": "application/json",
        },
        body: input.body === undefined ? undefined : JSON.stringify(input.body),
      }),
      { params: Promise.resolve({ id: input.id ?? "" }) },
    );
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }
  const createKey = async (role: Role, body: Record<string, unknown>) =>
    dashboard(createKeyRoute, { role, path: "api-keys", body });

  /** A signed /api/v2 call with `pair` and the body "{}". */
  async function signed(route: typeof listAccountsRoute, pair: Pair) {
    const body = "{}";
    const response = await requestContextStorage().run(
      { requestId: "test", peerAddress: "203.0.113.5" },
      () =>
        route(
          new Request("http://kassa.test/api/v2/x", {
            method: "POST",
            headers: {
              "content-type": "application/json",
              "x-processing-key": pair.key,
              "x-processing-signature": createHmac("sha512", pair.secret).update(body).digest("hex"),
            },
            body,
          }),
          { params: Promise.resolve({}) },
        ),
    );
    return { status: response.status, body: (await response.json()) as unknown };
  }
  const MONEY_ROUTES = [withdrawalRoute, instantWithdrawalRoute, exchangeNowRoute, exchangeFixedRoute];

  it("lets a developer create only a key that cannot move money, which gets the bad-key 403 on withdrawals and exchanges", async () => {
    const refused = await createKey("developer", { label: "dev money", can_move_money: true });
    expect(refused).toEqual({
      status: 403,
      body: {
        error:
          "Your role (developer) cannot create a key that moves money: ask a member who may create payouts.",
        code: "forbidden",
      },
    });
    expect(await database.db.select().from(apiKeys).where(eq(apiKeys.label, "dev money"))).toEqual([]);

    const created = await createKey("developer", { label: "dev key" });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ label: "dev key", can_move_money: false });
    const pair = created.body as { api_key: string; api_secret: string };
    const devKey = { key: pair.api_key, secret: pair.api_secret };
    for (const route of MONEY_ROUTES)
      expect(await signed(route, devKey)).toEqual({ status: 403, body: NO_MONEY_SCOPE });
    // Everything else works with it.
    expect((await signed(listAccountsRoute, devKey)).status).toBe(200);
  });

  it("lets an admin create a key that moves money, and keeps the keys from before scopes at full rights", async () => {
    const created = await createKey("admin", { label: "admin money", can_move_money: true });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ can_move_money: true });
    const pair = created.body as { api_key: string; api_secret: string };
    // Past the scope check: the empty body is refused by validation (400), not by the key (403).
    for (const key of [{ key: pair.api_key, secret: pair.api_secret }, ownerKey])
      for (const route of MONEY_ROUTES) {
        const answer = await signed(route, key);
        expect(answer.status).toBe(400);
      }
  });

  it("refuses a developer rolling a key that moves money (the old key keeps working) and rolls their own key", async () => {
    const [moneyKey] = await database.db.select().from(apiKeys).where(eq(apiKeys.label, "admin money"));
    const refused = await dashboard(rollKeyRoute, {
      role: "developer",
      path: `api-keys/${moneyKey!.id}/roll`,
      id: String(moneyKey!.id),
      body: { overlap_seconds: 0 },
    });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: "forbidden" });
    const [unchanged] = await database.db.select().from(apiKeys).where(eq(apiKeys.id, moneyKey!.id));
    expect(unchanged!.expiresAt).toBeNull();

    const [devKey] = await database.db.select().from(apiKeys).where(eq(apiKeys.label, "dev key"));
    const rolled = await dashboard(rollKeyRoute, {
      role: "developer",
      path: `api-keys/${devKey!.id}/roll`,
      id: String(devKey!.id),
      body: { overlap_seconds: 60 },
    });
    expect(rolled.status).toBe(201);
    expect(rolled.body).toMatchObject({ can_move_money: false, replaced_key: devKey!.key });
    // An admin rolls the money key into another money key.
    const byAdmin = await dashboard(rollKeyRoute, {
      role: "admin",
      path: `api-keys/${moneyKey!.id}/roll`,
      id: String(moneyKey!.id),
      body: { overlap_seconds: 60 },
    });
    expect(byAdmin.status).toBe(201);
    expect(byAdmin.body).toMatchObject({ can_move_money: true });
  });

  it("answers a path id that is not a positive whole number with the 404 of another merchant's key", async () => {
    for (const id of ["0", "-3", "1.5", "abc", "9007199254740993"]) {
      const answer = await dashboard(rollKeyRoute, {
        role: "admin",
        path: `api-keys/${id}/roll`,
        id,
        body: { overlap_seconds: 60 },
      });
      expect({ id, status: answer.status, body: answer.body }).toEqual({
        id,
        status: 404,
        body: expect.objectContaining({ code: "not_found", error: "No such API key." }),
      });
    }
  });

  it("names each key's creator and scope on the list, and keeps a removed member's keys", async () => {
    const developer = members.get("developer")!;
    const owner = await database.db.select().from(users).where(eq(users.email, "owner@scopes.test"));
    await removeMember(database.db, {
      merchantId,
      userId: developer.userId,
      actorId: owner[0]!.id,
      audit: {
        actor: { kind: "user", userId: owner[0]!.id, email: "owner@scopes.test" },
        address: "192.0.2.1",
      },
    });
    const listed = await dashboard(listKeysRoute, { role: "admin", path: "api-keys", method: "GET" });
    const keys = (listed.body as { keys: Record<string, unknown>[] }).keys;
    const summary = keys.map((k) => [
      k.label,
      k.can_move_money,
      k.created_by,
      k.is_creator_removed,
      k.revoked_at,
    ]);
    expect(summary).toEqual([
      ["admin money", true, "admin@scopes.test", false, null],
      ["dev key", false, "developer@scopes.test", true, null],
      ["admin money", true, "admin@scopes.test", false, null],
      ["dev key", false, "developer@scopes.test", true, null],
      ["Default key", true, "owner@scopes.test", false, null],
    ]);
    // The removed developer's key still serves the integration.
    const [devKey] = await database.db.select().from(apiKeys).where(eq(apiKeys.label, "dev key")).limit(1);
    expect(devKey!.revokedAt).toBeNull();
  });
});
