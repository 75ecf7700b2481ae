import { createHmac, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as apiBlocks } from "@/app/api/v2/sandbox/blocks/route";
import { POST as apiPayments } from "@/app/api/v2/sandbox/payments/route";
import { requestContextStorage } from "@/lib/api/request-context";
import type { RouteHandler } from "@/lib/api/route-handler";
import { withPublicCheckout } from "@/lib/api/with-public-checkout";
import { registerDatabase, unregisterDatabase } from "@/lib/db/client";
import { createMerchant } from "@/lib/merchants/create-merchant";
import { getSecretBox } from "@/lib/runtime";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";

/**
 * In production the sandbox routes do not exist (DESIGN.md section 8): every one answers the 404 of
 * an unknown path before it authenticates or reads the body, so a caller learns nothing from field
 * errors, a signature check or a size limit.
 */
describe(`sandbox routes in production mode, on ${testDriver}`, () => {
  let database: TestDatabase;
  let key: { key: string; secret: string };

  beforeAll(async () => {
    process.env.KASSA_MASTER_KEY = randomBytes(32).toString("hex");
    process.env.KASSA_MODE = "production";
    process.env.KASSA_PUBLIC_URL = "https://pay.example.test";
    database = await createTestDatabase();
    registerDatabase(database);
    const merchant = await createMerchant(database.db, getSecretBox(), {
      name: "Shop",
      email: `shop-${randomBytes(4).toString("hex")}@example.com`,
      password: "long password 1",
    });
    key = merchant.apiKey;
  });

  afterAll(async () => {
    unregisterDatabase();
    await database.drop();
  });

  async function call(route: RouteHandler, path: string, init: RequestInit) {
    const response = await requestContextStorage().run(
      { requestId: "test", peerAddress: "203.0.113.9" },
      () =>
        route(new Request(`https://pay.example.test${path}`, init), { params: Promise.resolve({ id: "1" }) }),
    );
    return { status: response.status, body: (await response.json()) as unknown };
  }

  const oversized = JSON.stringify({ currency: "BTC", filler: "x".repeat(200_000) });
  const signed = (body: string) => ({
    "content-type": "application/json",
    "x-processing-key": key.key,
    "x-processing-signature": createHmac("sha512", key.secret).update(body).digest("hex"),
  });

  it("answers 404 on the signed sandbox API for a signed, an unsigned, a malformed and an oversized request", async () => {
    const valid = JSON.stringify({ currency: "BTC", count: 1 });
    for (const [route, path] of [
      [apiBlocks, "/api/v2/sandbox/blocks"],
      [apiPayments, "/api/v2/sandbox/payments"],
    ] as const) {
      const answers = [
        await call(route, path, { method: "POST", headers: signed(valid), body: valid }),
        await call(route, path, { method: "POST", body: valid }),
        await call(route, path, { method: "POST", headers: signed("{nope"), body: "{nope" }),
        await call(route, path, { method: "POST", headers: signed(oversized), body: oversized }),
      ];
      expect(answers.map((a) => [path, a.status])).toEqual(answers.map(() => [path, 404]));
    }
  });

  it("answers 404 on every one of the dashboard's sandbox routes before asking for a session", async () => {
    const headers = {
      host: "pay.example.test",
      origin: "https://pay.example.test",
      "content-type": "application/json",
    };
    // Every route file below the folder, so a sandbox route added later is held to this too.
    const folder = path.join(process.cwd(), "app/api/dashboard/sandbox");
    const files = fs
      .readdirSync(folder, { recursive: true, encoding: "utf8" })
      .filter((file) => path.basename(file) === "route.ts");
    const answered: [string, string, number][] = [];
    for (const file of files) {
      const routePath = `/api/dashboard/sandbox/${path.dirname(file).replace("[id]", "1")}`.replace(
        /\/\.$/,
        "",
      );
      const module = (await import(path.join(folder, file))) as Record<string, RouteHandler>;
      for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"].filter((m) => module[m])) {
        const body = method === "GET" ? undefined : oversized;
        const answer = await call(module[method]!, routePath, { method, headers, body });
        answered.push([method, routePath, answer.status]);
      }
    }
    expect(answered.length).toBeGreaterThanOrEqual(8);
    expect(answered).toEqual(answered.map(([method, routePath]) => [method, routePath, 404]));
  });

  it("answers 404 from the checkout's wrapper too, for a route that declares itself sandbox-only", async () => {
    let isRun = false;
    const route = withPublicCheckout({ isSandboxOnly: true }, async () => {
      isRun = true;
      return {};
    });
    const answer = await call(route, "/api/checkout/x/sandbox", { method: "POST", body: oversized });
    expect([answer.status, isRun]).toEqual([404, false]);
  });
});
