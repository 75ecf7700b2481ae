import { createHmac } from "node:crypto";
import http from "node:http";
import { sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "@/lib/db/client";
import { ledgerInvariants } from "../support/ledger";
import {
  type Credentials,
  cli,
  createInstallation,
  driver,
  fundedMerchant,
  type Installation,
  invoiceBody,
  type KassaProcess,
  kill,
  newMerchant,
  startKassa,
  withdrawalBody,
} from "./harness";

/** Cases per endpoint: a short run in `npm test`, 10,000 in `npm run fuzz`. */
const RUNS = Number(process.env.KASSA_FUZZ_RUNS ?? 25);

const hostileValue = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.string({ minLength: 5_000, maxLength: 70_000 }),
  fc.constantFrom(
    "",
    " ",
    "\u0000",
    "\uFEFF",
    "𝟘𝟙",
    "0x10",
    "1e400",
    "-0",
    "NaN",
    "Infinity",
    "../../etc/passwd",
    "<script>",
    "' OR 1=1 --",
  ),
  fc.constantFrom(0, -1, 1e308, -1e308, 5e-324, 2 ** 53 + 1, 0.1 + 0.2, Number("99999999999999999999")),
  fc.boolean(),
  fc.constant(null),
  fc.json({ maxDepth: 3 }).map((text) => JSON.parse(text)),
  fc.array(fc.integer(), { maxLength: 5 }),
  fc.constant(Array.from({ length: 50 }).reduce<unknown>((inner) => [inner], 1)),
);

const hostileKey = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom("__proto__", "constructor", "prototype", "", "a.b", "toString"),
);

/** A valid body with one to three mutations: a field dropped, replaced by something hostile, or an extra field. */
function mutated(valid: Record<string, unknown>) {
  const keys = Object.keys(valid);
  const add = fc.record({ kind: fc.constant("add" as const), key: hostileKey, value: hostileValue });
  const mutation = keys.length
    ? fc.oneof(
        fc.record({ kind: fc.constant("drop" as const), key: fc.constantFrom(...keys) }),
        fc.record({
          kind: fc.constant("replace" as const),
          key: fc.constantFrom(...keys),
          value: hostileValue,
        }),
        add,
      )
    : add;
  return fc.array(mutation, { minLength: 1, maxLength: 3 }).map((mutations) => {
    const body: Record<string, unknown> = structuredClone(valid);
    for (const m of mutations) {
      if (m.kind === "drop") delete body[m.key];
      else
        Object.defineProperty(body, m.key, {
          value: m.value,
          enumerable: true,
          writable: true,
          configurable: true,
        });
    }
    return JSON.stringify(body);
  });
}

const rawBodies = fc.oneof(
  fc.json({ maxDepth: 4 }),
  fc.string({ maxLength: 200 }),
  fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes).toString("latin1")),
  fc.constantFrom("", "{", "[]", "null", '{"a":1,"a":2}', `{"x":${"[".repeat(100)}${"]".repeat(100)}}`),
);

type Signing = "valid" | "wrong" | "missing" | "other";

describe(`hostile input on ${driver}`, () => {
  let installation: Installation;
  let server: KassaProcess;
  let merchant: Credentials;
  let other: Credentials;
  let sessionCookie = "";
  const created = { count: 0 };

  const send = async (path: string, body: string, signing: Signing, method = "POST") => {
    const credentials = signing === "other" ? other : merchant;
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (signing !== "missing") {
      headers["x-processing-key"] = credentials.key;
      headers["x-processing-signature"] =
        signing === "wrong"
          ? "ab".repeat(64)
          : createHmac("sha512", credentials.secret).update(body, "latin1").digest("hex");
    }
    // node:http, not fetch: fetch refuses a GET with a body, which this API takes.
    return new Promise<{ status: number; text: string }>((resolve, reject) => {
      const request = http.request(`${server.base}${path}`, { method, headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString() }),
        );
      });
      request.on("error", reject);
      request.end(Buffer.from(body, "latin1"));
    });
  };

  beforeAll(async () => {
    installation = await createInstallation();
    server = await startKassa(installation, { env: { KASSA_RATE_LIMIT_PER_SECOND: "0" } });
    merchant = await fundedMerchant(installation, [
      ["LTC", "100"],
      ["EUR", "10000"],
    ]);
    other = await newMerchant(installation, "Other Shop");
    // A dashboard session for the same merchant, as a browser gets one.
    const csrf = await fetch(`${server.base}/api/auth/csrf`);
    const { csrfToken } = await csrf.json();
    const cookies = csrf.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const email = (
      await cli(
        installation,
        "merchants",
        "create",
        "--name",
        "Dash",
        "--email",
        "dash-fuzz@example.com",
        "--password",
        "a long password 1",
      )
    ).email;
    const login = await fetch(`${server.base}/api/auth/callback/credentials`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookies },
      body: new URLSearchParams({
        csrfToken,
        email: String(email),
        password: "a long password 1",
        json: "true",
      }),
    });
    sessionCookie = [cookies, ...login.headers.getSetCookie().map((c) => c.split(";")[0])].join("; ");
  });
  afterAll(async () => {
    await kill(server, "SIGTERM");
    await installation.cleanup();
  });

  const endpoints: { path: string; valid: Record<string, unknown>; creates?: boolean; method?: string }[] = [
    { path: "/api/v2/invoices/create", valid: JSON.parse(invoiceBody("fuzz")), creates: true },
    { path: "/api/v2/withdrawal/crypto", valid: JSON.parse(withdrawalBody("fuzz")), creates: true },
    {
      path: "/api/v2/crypto/withdrawal_instant",
      valid: {
        sender_currency: "LTC",
        sender_amount: "0.1",
        address: "ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh",
        foreign_id: "x",
        end_user_reference: "p",
        sender_type: "legal",
        sender_data: { legal_name: "A", country_of_registration: "DEU" },
        receiver_type: "self",
      },
      creates: true,
    },
    { path: "/api/v2/transactions/info", valid: { id: 1 }, method: "GET" },
    { path: "/api/v2/transactions/info", valid: { foreign_id: "x" } },
    {
      path: "/api/v2/exchange/calculate",
      valid: { sender_currency: "EUR", receiver_currency: "BTC", sender_amount: "100" },
    },
    { path: "/api/v2/addresses/take", valid: { foreign_id: "u", currency: "BTC" } },
    { path: "/api/v2/currencies/list", valid: { visible: true } },
    { path: "/api/v2/accounts/list", valid: {} },
    { path: "/api/v2/invoices/fuzz/cancel", valid: {} },
    { path: "/api/v2/callbacks/resend", valid: { id: 1 } },
    {
      path: "/api/v2/sandbox/payments",
      valid: { address: "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu", currency: "BTC", amount: "0.1" },
    },
    { path: "/api/v2/sandbox/blocks", valid: { currency: "BTC", count: 1 } },
  ];

  for (const endpoint of endpoints) {
    it(`${endpoint.method ?? "POST"} ${endpoint.path} never answers 5xx`, async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.oneof({ weight: 4, arbitrary: mutated(endpoint.valid) }, { weight: 1, arbitrary: rawBodies }),
          fc.constantFrom<Signing>("valid", "valid", "valid", "valid", "wrong", "missing", "other"),
          async (body, signing) => {
            const { status, text } = await send(endpoint.path, body, signing, endpoint.method);
            expect(status, `${status} for ${body.slice(0, 200)}: ${text.slice(0, 200)}`).toBeLessThan(500);
            if (status === 201 && endpoint.creates && signing !== "other") created.count++;
          },
        ),
        { numRuns: RUNS },
      );
    });
  }

  it("the checkout API never answers 5xx to guessed tokens and garbage", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 80 }), rawBodies, async (token, body) => {
        const path = `/api/checkout/${encodeURIComponent(token)}`;
        expect((await fetch(`${server.base}${path}`)).status).toBeLessThan(500);
        const fixed = await fetch(`${server.base}${path}/currency`, {
          method: "POST",
          body,
          headers: { "content-type": "application/json" },
        });
        expect(fixed.status).toBeLessThan(500);
      }),
      { numRuns: RUNS },
    );
  });

  it("the dashboard API never answers 5xx, signed in or not", async () => {
    const paths = [
      "/api/dashboard/invoices",
      "/api/dashboard/withdrawals",
      "/api/dashboard/quote",
      "/api/dashboard/api-keys",
      "/api/dashboard/sandbox/payments",
      "/api/dashboard/sandbox/credit",
      "/api/dashboard/password",
      "/api/dashboard/totp/enable",
      "/api/dashboard/signup",
    ];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...paths), rawBodies, fc.boolean(), async (path, body, isSignedIn) => {
        const response = await fetch(`${server.base}${path}`, {
          method: "POST",
          body,
          headers: {
            "content-type": "application/json",
            origin: server.base,
            ...(isSignedIn && { cookie: sessionCookie }),
          },
        });
        expect(response.status, `${path} ${body.slice(0, 100)}`).toBeLessThan(500);
      }),
      { numRuns: RUNS * 2 },
    );
    for (const query of ["type=%00&before=-1&from=yesterday", "q=%00", "q=%C0%80", `q=${"x".repeat(5000)}`]) {
      const response = await fetch(`${server.base}/api/dashboard/transactions?${query}`, {
        headers: { cookie: sessionCookie },
      });
      expect(response.status, query.slice(0, 40)).toBeLessThan(500);
    }
    expect((await fetch(`${server.base}/api/checkout/%00`)).status).toBeLessThan(500);
  });

  it("is still up, and rejected requests changed nothing", async () => {
    expect(await (await fetch(`${server.base}/api/v2/ping`)).text()).toBe("OK");
    await kill(server, "SIGTERM");
    const database = await installation.open();
    try {
      const [row] = await queryRows<{ count: number }>(
        database.db,
        sql`select count(*)::int as count from transactions where merchant_id = ${merchant.merchantId}`,
      );
      expect(row!.count).toBe(created.count);
      expect(await ledgerInvariants(database.db)).toEqual({
        nonZeroCurrencies: [],
        accountsNotMatchingEntries: 0,
        negativeMerchantBalances: 0,
      });
    } finally {
      await database.close();
    }
    server = await startKassa(installation, { env: { KASSA_RATE_LIMIT_PER_SECOND: "0" } });
  });
});
