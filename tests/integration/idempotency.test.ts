import { createHmac, randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as takeAddressRoute } from "@/app/api/v2/addresses/take/route";
import { POST as cancelInvoiceRoute } from "@/app/api/v2/invoices/[foreign_id]/cancel/route";
import { POST as createInvoiceRoute } from "@/app/api/v2/invoices/create/route";
import type { RouteHandler } from "@/lib/api/route-handler";
import { SecretBox } from "@/lib/crypto/secret-box";
import { openDatabase, queryRows, registerDatabase, unregisterDatabase } from "@/lib/db/client";
import { pruneIdempotencyKeys } from "@/lib/idempotency/prune-idempotency-keys";
import { idempotencyLockId, runIdempotent } from "@/lib/idempotency/run-idempotent";
import { createInvoice } from "@/lib/invoices/create-invoice";
import { createMerchant } from "@/lib/merchants/create-merchant";
import { buildOpenApiDocument } from "@/lib/openapi/document";
import { ENDPOINTS } from "@/lib/openapi/endpoints";
import { createTestDatabase, type TestDatabase, testDriver } from "../support/database";
import { invoiceRequest, settings } from "../support/invoices";

/**
 * Idempotency-Key through the real route handlers and wrapper, on the test file's own database
 * (PGlite, or PostgreSQL with KASSA_TEST_DATABASE_URL).
 */
describe(`Idempotency-Key on ${testDriver}`, () => {
  let database: TestDatabase;
  type Caller = { merchantId: number; key: string; secret: string };
  let shop: Caller;
  let other: Caller;

  const masterKey = randomBytes(32);

  async function caller(name: string): Promise<Caller> {
    const created = await createMerchant(database.db, new SecretBox(masterKey), {
      name,
      email: `${name.toLowerCase()}-${randomBytes(4).toString("hex")}@example.com`,
      password: "long password 1",
    });
    return { merchantId: created.merchantId, key: created.apiKey.key, secret: created.apiKey.secret };
  }

  async function send(input: {
    route: RouteHandler;
    path: string;
    body: string;
    as?: Caller;
    key?: string;
    params?: Record<string, string>;
  }) {
    const who = input.as ?? shop;
    const headers: Record<string, string> = {
      "content-type": "application/json",
      "x-processing-key": who.key,
      "x-processing-signature": createHmac("sha512", who.secret).update(input.body).digest("hex"),
    };
    if (input.key !== undefined) headers["idempotency-key"] = input.key;
    const response = await input.route(
      new Request(`http://kassa.test/api/v2${input.path}`, { method: "POST", headers, body: input.body }),
      { params: Promise.resolve(input.params ?? {}) },
    );
    return {
      status: response.status,
      text: await response.text(),
      replayed: response.headers.get("idempotent-replayed"),
      retryAfter: response.headers.get("retry-after"),
    };
  }

  const createBody = (overrides: Record<string, unknown> = {}) =>
    JSON.stringify({
      ...invoiceRequest(),
      amount: "100",
      foreign_id: `order-${randomBytes(6).toString("hex")}`,
      ...overrides,
    });
  const create = (body: string, key?: string, as?: Caller) =>
    send({ route: createInvoiceRoute, path: "/invoices/create", body, key, as });
  const cancel = (foreignId: string, key?: string) =>
    send({
      route: cancelInvoiceRoute,
      path: `/invoices/${foreignId}/cancel`,
      body: "{}",
      key,
      params: { foreign_id: foreignId },
    });

  const transactionsWith = async (foreignId: string) =>
    Number(
      (
        await queryRows<{ n: number | string }>(
          database.db,
          sql`select count(*) as n from transactions where foreign_id = ${foreignId}`,
        )
      )[0]!.n,
    );
  const newKey = () => `key-${randomBytes(8).toString("hex")}`;

  beforeAll(async () => {
    process.env.KASSA_MASTER_KEY = masterKey.toString("hex");
    process.env.KASSA_MODE = "sandbox";
    database = await createTestDatabase();
    registerDatabase(database);
    shop = await caller("Shop");
    other = await caller("Other");
  });

  afterAll(async () => {
    unregisterDatabase();
    await database.drop();
  });

  it("runs a create once and replays its status and exact body, marked as a replay", async () => {
    const body = createBody();
    const foreignId = JSON.parse(body).foreign_id as string;
    const key = newKey();
    const first = await create(body, key);
    expect(first.status).toBe(201);
    expect(first.replayed).toBeNull();
    expect(JSON.parse(first.text).data.foreign_id).toBe(foreignId);

    const second = await create(body, key);
    expect(second).toMatchObject({ status: 201, text: first.text, replayed: "true" });
    expect(await transactionsWith(foreignId)).toBe(1);
  });

  it("refuses the same key with another body or another path with 409, and runs neither", async () => {
    const key = newKey();
    const body = createBody();
    expect((await create(body, key)).status).toBe(201);

    const otherBody = createBody();
    const refused = await create(otherBody, key);
    expect(refused.status).toBe(409);
    expect(JSON.parse(refused.text)).toEqual({
      error:
        "This Idempotency-Key was already used with a different request. Use a new key for a new request.",
      code: "idempotency_key_reused",
    });
    expect(await transactionsWith(JSON.parse(otherBody).foreign_id)).toBe(0);

    // The same bytes, one space apart: not the same request.
    expect((await create(body.replace("{", "{ "), key)).status).toBe(409);
    expect((await cancel(JSON.parse(body).foreign_id, key)).status).toBe(409);
  });

  it("replays a client error: a cancel answered 404 stays 404 for its key after the invoice exists", async () => {
    const foreignId = `order-${randomBytes(6).toString("hex")}`;
    const key = newKey();
    const missing = await cancel(foreignId, key);
    expect(missing.status).toBe(404);

    expect((await create(createBody({ foreign_id: foreignId }))).status).toBe(201);
    const replay = await cancel(foreignId, key);
    expect(replay).toMatchObject({ status: 404, text: missing.text, replayed: "true" });
    // The route takes the path with or without its trailing slash: the same request either way.
    const slashed = await send({
      route: cancelInvoiceRoute,
      path: `/invoices/${foreignId}/cancel/`,
      body: "{}",
      key,
      params: { foreign_id: foreignId },
    });
    expect(slashed).toMatchObject({ status: 404, text: missing.text, replayed: "true" });
    // Nothing ran: the invoice is still open, and a cancel under a new key does cancel it.
    const fresh = await cancel(foreignId, newKey());
    expect(fresh.status).toBe(200);
    expect(JSON.parse(fresh.text)).toEqual([]); // the public API's answer to a cancel
    const [invoice] = await queryRows<{ status: string }>(
      database.db,
      sql`select status from transactions where foreign_id = ${foreignId}`,
    );
    expect(invoice!.status).toBe("cancelled");
  });

  it("replays an engine's 400 and keeps nothing the refused operation wrote", async () => {
    const foreignId = `order-${randomBytes(6).toString("hex")}`;
    expect((await create(createBody({ foreign_id: foreignId }))).status).toBe(201);
    const key = newKey();
    const body = createBody({ foreign_id: foreignId });
    const taken = await create(body, key);
    expect(taken.status).toBe(400);
    expect(JSON.parse(taken.text)).toEqual({
      errors: { foreign_id: "The foreign id has already been taken." },
    });
    expect(await create(body, key)).toMatchObject({ status: 400, text: taken.text, replayed: "true" });
    expect(await transactionsWith(foreignId)).toBe(1);
  });

  it("stores nothing for a request refused by validation, as Stripe does", async () => {
    const key = newKey();
    const invalid = await create(createBody({ amount: "-1" }), key);
    expect(invalid.status).toBe(400);
    const fixed = await create(createBody(), key);
    expect(fixed).toMatchObject({ status: 201, replayed: null });
  });

  it("scopes keys per merchant", async () => {
    const key = newKey();
    const mine = await create(createBody(), key);
    const body = createBody();
    const theirs = await create(body, key, other);
    expect(theirs).toMatchObject({ status: 201, replayed: null });
    expect(theirs.text).not.toBe(mine.text);
    expect(await transactionsWith(JSON.parse(body).foreign_id)).toBe(1);
  });

  it("is declared on the money-moving endpoints, and the OpenAPI document says so", () => {
    const declared = ENDPOINTS.filter((endpoint) => endpoint.isIdempotent).map((endpoint) => endpoint.path);
    expect(declared.sort()).toEqual(
      [
        "/addresses/take",
        "/crypto/withdrawal_instant",
        "/exchange/fixed",
        "/exchange/now",
        "/invoices/create",
        "/invoices/{foreign_id}/cancel",
        "/invoices/{foreign_id}/refunds/create",
        "/invoices/{foreign_id}/refunds/{refund_id}/cancel",
        "/payment-links/create",
        "/payment-links/{id}/deactivate",
        "/withdrawal/batch",
        "/withdrawal/crypto",
      ].sort(),
    );
    const paths = buildOpenApiDocument().paths as Record<string, { post?: Record<string, unknown> }>;
    for (const path of declared) {
      expect(paths[path]!.post!.parameters).toEqual([
        expect.objectContaining({ name: "Idempotency-Key", in: "header" }),
      ]);
      expect(Object.keys(paths[path]!.post!.responses as object)).toContain("409");
    }
    expect(paths["/transactions/info"]!.post?.parameters).toBeUndefined();
  });

  it("replays addresses/take, whose engine runs its own nested transaction", async () => {
    const body = JSON.stringify({
      currency: "BTC",
      foreign_id: `customer-${randomBytes(4).toString("hex")}`,
    });
    const key = newKey();
    const take = () => send({ route: takeAddressRoute, path: "/addresses/take", body, key });
    const first = await take();
    expect(first.status).toBe(201);
    const foreignId = JSON.parse(body).foreign_id as string;
    expect(JSON.parse(first.text).data).toMatchObject({ currency: "BTC", foreign_id: foreignId });
    expect(await take()).toMatchObject({ status: 201, text: first.text, replayed: "true" });
    const rows = await queryRows<{ address: string }>(
      database.db,
      sql`select address from deposit_addresses where foreign_id = ${foreignId}`,
    );
    expect(rows.map((row) => row.address)).toEqual([JSON.parse(first.text).data.address]);
  });

  it("refuses an empty or over-long key with 400 and accepts 255 characters", async () => {
    for (const key of ["", "k".repeat(256)]) {
      const refused = await create(createBody(), key);
      expect(refused.status).toBe(400);
      expect(JSON.parse(refused.text).code).toBe("idempotency_key_invalid");
    }
    expect((await create(createBody(), "k".repeat(255))).status).toBe(201);
  });

  it("answers many concurrent requests with one key with exactly one create", async () => {
    const body = createBody();
    const key = newKey();
    const answers = await Promise.all(Array.from({ length: 8 }, () => create(body, key)));
    expect(await transactionsWith(JSON.parse(body).foreign_id)).toBe(1);
    const originals = answers.filter((a) => a.status === 201 && a.replayed === null);
    expect(originals).toHaveLength(1);
    for (const answer of answers) {
      if (answer.status === 201) expect(answer.text).toBe(originals[0]!.text);
      else expect(answer).toMatchObject({ status: 409, retryAfter: "1" });
    }
    // Once the first has committed, every retry is a replay.
    expect(await create(body, key)).toMatchObject({
      status: 201,
      text: originals[0]!.text,
      replayed: "true",
    });
  });

  if (testDriver === "pg") {
    it("answers 409 at once while another instance holds the key, then runs when it let go", async () => {
      const body = createBody();
      const key = newKey();
      // A second connection pool stands for another app instance in the middle of this key.
      const location = database.location as { kind: "pg"; url: string };
      const instance = await openDatabase({ kind: "pg", url: location.url, poolSize: 1 });
      let release!: () => void;
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let locked!: () => void;
      const isLocked = new Promise<void>((resolve) => {
        locked = resolve;
      });
      const holder = instance.db.transaction(async (tx) => {
        await tx.execute(
          sql`select pg_advisory_xact_lock(${idempotencyLockId(shop.merchantId, key)}::bigint)`,
        );
        locked();
        await held;
      });
      await isLocked;
      const busy = await create(body, key);
      expect(busy.status).toBe(409);
      expect(JSON.parse(busy.text).code).toBe("idempotency_key_in_flight");
      expect(busy.retryAfter).toBe("1");
      release();
      await holder;
      await instance.close();
      expect((await create(body, key)).status).toBe(201);
    });
  }

  it("stores no fault: the operation's writes roll back with it and a retry runs", async () => {
    const request = invoiceRequest();
    const key = newKey();
    const attempt = (isFaulty: boolean) =>
      runIdempotent(database.db, {
        merchantId: shop.merchantId,
        key,
        requestHash: "hash",
        run: async (db) => {
          const invoice = await createInvoice(db, { merchantId: shop.merchantId, request, settings });
          // The process failing after the operation and before its answer is recorded.
          if (isFaulty) throw new Error("the process died here");
          return { status: 201, body: String(invoice.id) };
        },
        answerError: async () => undefined,
      });
    await expect(attempt(true)).rejects.toThrow("the process died here");
    expect(await transactionsWith(request.foreign_id)).toBe(0);
    const done = await attempt(false);
    expect(done.isReplay).toBe(false);
    expect(await transactionsWith(request.foreign_id)).toBe(1);
    expect(await attempt(false)).toEqual({ ...done, isReplay: true });
  });

  it("forgets a key after 24 hours and prunes it", async () => {
    const body = createBody();
    const key = newKey();
    expect((await create(body, key)).status).toBe(201);
    await database.db.execute(
      sql`update idempotency_keys set created_at = now() - interval '24 hours 1 minute' where key = ${key}`,
    );
    // The key no longer answers: the request runs again (and is refused, its foreign id being taken).
    const again = await create(body, key);
    expect(again).toMatchObject({ status: 400, replayed: null });
    await database.db.execute(
      sql`update idempotency_keys set created_at = now() - interval '25 hours' where key = ${key}`,
    );
    const keep = newKey();
    expect((await create(createBody(), keep)).status).toBe(201);
    expect(await pruneIdempotencyKeys(database.db)).toBeGreaterThanOrEqual(1);
    const left = await queryRows<{ key: string }>(
      database.db,
      sql`select key from idempotency_keys where key in (${key}, ${keep})`,
    );
    expect(left.map((row) => row.key)).toEqual([keep]);
  });
});
