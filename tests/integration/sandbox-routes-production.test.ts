import { createHmac, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as dashboardBlocks } from "@/app/api/dashboard/sandbox/blocks/route";
import { POST as dashboardCredit } from "@/app/api/dashboard/sandbox/credit/route";
import {
  POST as dashboardInvoice,
  GET as dashboardInvoiceGet,
} from "@/app/api/dashboard/sandbox/invoices/[id]/route";
import { POST as dashboardPayments } from "@/app/api/dashboard/sandbox/payments/route";
import { POST as dashboardRates } from "@/app/api/dashboard/sandbox/rates/route";
import { POST as apiBlocks } from "@/app/api/v2/sandbox/blocks/route";
import { POST as apiPayments } from "@/app/api/v2/sandbox/payments/route";
import { requestContextStorage } from "@/lib/api/request-context";
import type { RouteHandler } from "@/lib/api/route-handler";
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

  it("answers 404 on the dashboard's sandbox routes before asking for a session", async () => {
    const headers = {
      host: "pay.example.test",
      origin: "https://pay.example.test",
      "content-type": "application/json",
    };
    for (const [route, path, method] of [
      [dashboardBlocks, "/api/dashboard/sandbox/blocks", "POST"],
      [dashboardCredit, "/api/dashboard/sandbox/credit", "POST"],
      [dashboardPayments, "/api/dashboard/sandbox/payments", "POST"],
      [dashboardRates, "/api/dashboard/sandbox/rates", "POST"],
      [dashboardInvoice, "/api/dashboard/sandbox/invoices/1", "POST"],
      [dashboardInvoiceGet, "/api/dashboard/sandbox/invoices/1", "GET"],
    ] as const) {
      const body = method === "POST" ? oversized : undefined;
      const answer = await call(route, path, { method, headers, body });
      expect([path, answer.status]).toEqual([path, 404]);
    }
  });
});
