import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { encode } from "next-auth/jwt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SessionRouteHandler } from "@/lib/api/with-session";
import { registerDatabase, unregisterDatabase } from "@/lib/db/client";
import { users } from "@/lib/db/schema";
import { hashPassword } from "@/lib/merchants/create-merchant";
import {
  can,
  notAllowedMessage,
  PERMISSIONS,
  type Permission,
  ROLES,
  type Role,
} from "@/lib/team/permissions";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { createTestMerchant } from "../support/merchants";

// The route handlers read the process's configuration: a session secret and a master key of this test's own.
process.env.NEXTAUTH_SECRET = randomBytes(32).toString("hex");
process.env.KASSA_MASTER_KEY = randomBytes(32).toString("hex");

const ROOT = path.resolve(import.meta.dirname, "../..");
const DASHBOARD_API = path.join(ROOT, "app/api/dashboard");
const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"] as const;

/** The dashboard routes anyone may call without a session: each is a way in, not an action of a team. */
const PUBLIC_ROUTES = new Set([
  "POST signup",
  "POST signup/confirm",
  "POST password-reset",
  "POST password-reset/confirm",
  "POST team/join",
  "POST team/join/invitation",
]);

/**
 * The table written independently of lib/team/permissions.ts, from the task's words and docs/team-and-roles.md:
 * a viewer only looks; a developer manages keys and callbacks but no payouts; finance creates and
 * approves payouts; admin and owner everything (admins are kept from owners inside lib/team), except
 * that only an owner chooses the callback key.
 */
const EXPECTED: Record<Role, Permission[]> = {
  owner: Object.keys(PERMISSIONS) as Permission[],
  // The key that signs the dashboard's callbacks is the owner's choice alone.
  admin: (Object.keys(PERMISSIONS) as Permission[]).filter((p) => p !== "callbacks.choose_key"),
  finance: [
    "dashboard.view",
    "account.manage",
    "invoices.manage",
    "payouts.create",
    "payouts.approve",
    "compliance.review",
  ],
  developer: [
    "dashboard.view",
    "account.manage",
    "invoices.manage",
    "api_keys.view",
    "api_keys.manage",
    "callbacks.manage",
    "sandbox.use",
  ],
  viewer: ["dashboard.view", "account.manage"],
};

/**
 * What each route must ask, written here on its own so a route given a wrong permission fails (a
 * new route fails too, until it is added: decide its permission here and in the route).
 */
const ROUTE_PERMISSIONS: Record<string, Permission> = {
  "GET api-keys": "api_keys.view",
  "POST api-keys": "api_keys.manage",
  "PUT api-keys/[id]/allowlist": "api_keys.manage",
  "POST api-keys/[id]/revoke": "api_keys.manage",
  "POST api-keys/[id]/roll": "api_keys.manage",
  "GET audit": "audit.view",
  "GET audit/export": "audit.view",
  "GET balances": "dashboard.view",
  "GET callback-key": "callbacks.manage",
  "PUT callback-key": "callbacks.choose_key",
  "GET callback-settings": "dashboard.view",
  "PUT callback-settings": "callbacks.manage",
  "GET callback-url": "dashboard.view",
  "PUT callback-url": "callbacks.manage",
  "GET callbacks": "dashboard.view",
  "POST callbacks/[id]/resend": "callbacks.manage",
  "POST callbacks/retry-pending": "callbacks.manage",
  "POST callbacks/test": "callbacks.manage",
  "POST invoices": "invoices.manage",
  "POST invoices/[id]/cancel": "invoices.manage",
  "POST invoices/[id]/refunds": "payouts.create",
  "POST invoices/[id]/refunds/preview": "payouts.create",
  "POST refunds/[id]/cancel": "payouts.create",
  "POST invoices/[id]/resolve": "payouts.create",
  "POST payment-links": "invoices.manage",
  "POST payment-links/[id]/deactivate": "invoices.manage",
  "POST onboarding": "settings.manage",
  "POST password": "account.manage",
  "POST quote": "payouts.create",
  "GET reviews": "compliance.review",
  "POST reviews/[id]/reject": "compliance.review",
  "POST reviews/[id]/release": "compliance.review",
  "POST reviews/threshold": "settings.manage",
  "GET quote/max": "payouts.create",
  "POST sandbox/blocks": "sandbox.use",
  "POST sandbox/credit": "sandbox.use",
  "GET sandbox/invoices/[id]": "sandbox.use",
  "POST sandbox/invoices/[id]": "sandbox.use",
  "GET sandbox/outbox": "sandbox.use",
  "POST sandbox/payments": "sandbox.use",
  "GET sandbox/rates": "sandbox.use",
  "POST sandbox/rates": "sandbox.use",
  "GET team": "team.view",
  "POST team/invitations": "team.manage",
  "POST team/invitations/[id]/resend": "team.manage",
  "POST team/invitations/[id]/revoke": "team.manage",
  "POST team/members/[id]/remove": "team.manage",
  "PUT team/members/[id]/role": "team.manage",
  "POST totp/disable": "account.manage",
  "POST totp/enable": "account.manage",
  "POST totp/setup": "account.manage",
  "POST step-up": "account.manage",
  "PUT support-email": "settings.manage",
  "PUT underpayment-tolerance": "settings.manage",
  "GET transactions": "dashboard.view",
  "GET transactions/[id]": "dashboard.view",
  "GET transactions/export": "dashboard.view",
  "POST withdrawals": "payouts.create",
  "POST withdrawals/[id]/approve": "payouts.approve",
  "POST withdrawals/[id]/decline": "payouts.approve",
  "POST withdrawals/instant": "payouts.create",
  "GET withdrawals/limits": "dashboard.view",
  "POST withdrawals/limits": "limits.manage",
  "POST withdrawals/limits/remove": "limits.manage",
  "GET withdrawals/pending": "dashboard.view",
  "GET payout-batches": "payouts.create",
  "POST payout-batches": "payouts.create",
  "POST payout-batches/check": "payouts.create",
  "GET payout-batches/template": "payouts.create",
  "GET payout-batches/[id]": "payouts.create",
  "GET payout-batches/[id]/result": "payouts.create",
  "POST payout-batches/[id]/approve": "payouts.approve",
  "POST payout-batches/[id]/decline": "payouts.approve",
};

/** Every route file under app/api/dashboard, as its path below it ("withdrawals/[id]/approve"). */
function routeFiles(dir = DASHBOARD_API): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return routeFiles(full);
    return entry.name === "route.ts" ? [path.relative(DASHBOARD_API, dir)] : [];
  });
}

type Route = { name: string; method: string; handler: SessionRouteHandler };

describe(`the role matrix of every dashboard route on ${testDriver}`, () => {
  let database: TestDatabase;
  let routes: Route[];
  const cookies = new Map<Role, string>();

  beforeAll(async () => {
    database = await createTestDatabase();
    registerDatabase(database);
    const merchantId = await createTestMerchant(database, "Matrix");
    const passwordHash = await hashPassword("long password 1");
    for (const role of ROLES) {
      const email = `${role}@matrix.test`;
      const [user] = await database.db
        .insert(users)
        .values({ merchantId, email, passwordHash, role })
        .returning({ id: users.id });
      const token = {
        sub: String(user!.id),
        email,
        merchantId,
        sessionVersion: 0,
        sessionId: `matrix-${role}`,
      };
      const value = await encode({ token, secret: process.env.NEXTAUTH_SECRET! });
      cookies.set(role, `next-auth.session-token=${value}`);
    }
    routes = [];
    for (const name of routeFiles()) {
      const module = (await import(path.join(DASHBOARD_API, name, "route.ts"))) as Record<string, unknown>;
      for (const method of METHODS)
        if (module[method]) routes.push({ name, method, handler: module[method] as SessionRouteHandler });
    }
  });
  afterAll(async () => {
    unregisterDatabase();
    await database.drop();
  });

  it("finds the routes, and the table says what the task asks of each role", () => {
    expect(routes.length).toBeGreaterThan(45);
    for (const role of ROLES)
      for (const permission of Object.keys(PERMISSIONS) as Permission[])
        expect([role, permission, can(role, permission)]).toEqual([
          role,
          permission,
          EXPECTED[role].includes(permission),
        ]);
    expect(PERMISSIONS["compliance.review"]).toEqual(["owner", "admin", "finance"]);
  });

  it("gives every route a permission of the table, or lists it as public", () => {
    for (const route of routes) {
      const key = `${route.method} ${route.name}`;
      const { permission } = route.handler;
      const expected = PUBLIC_ROUTES.has(key)
        ? "public"
        : (ROUTE_PERMISSIONS[key] ?? "missing from ROUTE_PERMISSIONS");
      expect([key, permission]).toEqual([key, expected]);
    }
    expect(routes).toHaveLength(PUBLIC_ROUTES.size + Object.keys(ROUTE_PERMISSIONS).length);
    // Every public route of the list still exists.
    for (const key of PUBLIC_ROUTES) expect(routes.map((r) => `${r.method} ${r.name}`)).toContain(key);
  });

  /** One call of a route as a signed-in member of `role`, from the dashboard's own origin. */
  async function call(route: Route, role: Role): Promise<{ status: number; body: Record<string, unknown> }> {
    const url = `http://kassa.test/api/dashboard/${route.name.replaceAll("[id]", "999999999")}`;
    const hasBody = !["GET", "HEAD"].includes(route.method);
    const response = await route.handler(
      new Request(url, {
        method: route.method,
        headers: {
          host: "kassa.test",
          origin: "http://kassa.test",
          cookie: cookies.get(role)!,
          "content-type": "application/json",
        },
        body: hasBody ? "{}" : undefined,
      }),
      { params: Promise.resolve({ id: "999999999" }) },
    );
    const text = await response.text();
    return { status: response.status, body: text.startsWith("{") ? JSON.parse(text) : {} };
  }

  it.each(ROLES)(
    "answers %s exactly what the table allows on every route, through the real handlers",
    async (role) => {
      const refusal = { error: notAllowedMessage(role), code: "forbidden" };
      let checked = 0;
      for (const route of routes) {
        if (route.handler.permission === "public") continue;
        const answer = await call(route, role);
        const key = `${route.method} ${route.name}`;
        if (can(role, route.handler.permission)) {
          // Allowed: the handler ran (a refusal of the empty body, a missing id, or the answer itself).
          expect([key, answer.body]).not.toEqual([key, refusal]);
          expect([key, answer.status < 500 && answer.status !== 401]).toEqual([key, true]);
        } else {
          expect([key, answer.status, answer.body]).toEqual([key, 403, refusal]);
        }
        checked++;
      }
      expect(checked).toBeGreaterThan(40);
    },
  );

  it("believes X-Forwarded-Host on a mutation only from a trusted proxy (none configured here)", async () => {
    const route = routes.find((r) => r.name === "invoices" && r.method === "POST")!;
    const post = (headers: Record<string, string>) =>
      route.handler(
        new Request("http://kassa.test/api/dashboard/invoices", {
          method: "POST",
          headers: { cookie: cookies.get("owner")!, "content-type": "application/json", ...headers },
          body: "{}",
        }),
        { params: Promise.resolve({}) },
      );
    // A page of evil.example claiming, through a header any client can send, that it is the host.
    const spoofed = await post({
      host: "kassa.test",
      origin: "http://evil.example",
      "x-forwarded-host": "evil.example",
    });
    expect(spoofed.status).toBe(403);
    expect(await spoofed.json()).toMatchObject({
      error: "This request did not come from the Kassa dashboard.",
    });
    // The dashboard's own page is let through whatever a forwarded header says (the empty body is refused 400).
    const own = await post({
      host: "kassa.test",
      origin: "http://kassa.test",
      "x-forwarded-host": "evil.example",
    });
    expect(own.status).toBe(400);
  });

  it("answers a request without a session 401", async () => {
    const route = routes.find((r) => r.name === "balances" && r.method === "GET")!;
    const response = await route.handler(
      new Request("http://kassa.test/api/dashboard/balances", { headers: { host: "kassa.test" } }),
      { params: Promise.resolve({}) },
    );
    expect(response.status).toBe(401);
  });
});
