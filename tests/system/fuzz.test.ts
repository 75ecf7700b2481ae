import { createHmac } from "node:crypto";
import http from "node:http";
import { sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "@/lib/db/client";
import { ledgerInvariants } from "../support/ledger";
import {
  type Credentials,
  createInstallation,
  driver,
  fundedMerchant,
  type Installation,
  invoiceBody,
  type KassaProcess,
  kill,
  newMerchant,
  signIn,
  startKassa,
  stepUp,
  withdrawalBody,
} from "./harness";
import { mutated, RUNS, rawBodies } from "./hostile-input";

type Signing = "valid" | "wrong" | "missing" | "other";
type Caller = "signed-in" | "signed-out" | "cross-site";

const instantBody = {
  sender_currency: "LTC",
  sender_amount: "0.1",
  address: "ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh",
  foreign_id: "x",
  end_user_reference: "p",
  sender_type: "legal",
  sender_data: { legal_name: "A", country_of_registration: "DEU" },
  receiver_type: "self",
};

type Creates = true | ((text: string) => number);
const countOf = (creates: Creates, text: string) => (creates === true ? 1 : creates(text));

const batchSender = {
  sender_type: "legal",
  sender_data: { legal_name: "A", country_of_registration: "DEU" },
};
const batchPayout = (foreignId: string) => ({
  currency: "LTC",
  amount: "0.1",
  address: "ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh",
  foreign_id: foreignId,
  receiver_type: "self",
});
/** A bulk payout file of one line, as the dashboard sends it (base64). */
const batchFile = (reference: string) =>
  Buffer.from(
    `reference,currency,amount,address,receiver_type\n${reference},LTC,0.1,ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh,self\n`,
  ).toString("base64");
const seenBatches = new Set<number>();
const paymentLinkBody = { title: "Fuzz ticket", currency: "EUR", amount: "10" };

describe(`hostile input on ${driver}`, () => {
  let installation: Installation;
  let server: KassaProcess;
  let merchant: Credentials;
  let other: Credentials;
  let sessionCookie = "";
  let token = "";
  let invoiceId = 0;
  let linkToken = "";
  const created = { count: 0 };

  /** node:http, not fetch: fetch refuses a GET with a body (which this API takes) and paths that do not decode. */
  const request = (
    path: string,
    options: { method?: string; headers?: Record<string, string>; body?: Buffer } = {},
  ) =>
    new Promise<{ status: number; text: string }>((resolve, reject) => {
      const outgoing = http.request(
        {
          host: "127.0.0.1",
          port: server.port,
          path,
          method: options.method ?? "GET",
          headers: options.headers,
          timeout: 20_000,
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("end", () =>
            resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString() }),
          );
          // A body cut off half-way (a stream that failed after its headers) is a failure too.
          response.on("aborted", () => reject(new Error(`${path.slice(0, 80)}: the answer was cut off`)));
          response.on("error", reject);
        },
      );
      outgoing.on("timeout", () => outgoing.destroy(new Error(`no answer to ${path.slice(0, 80)}`)));
      outgoing.on("error", reject);
      outgoing.end(options.body);
    });

  const send = (path: string, body: string, signing: Signing, method = "POST") => {
    const credentials = signing === "other" ? other : merchant;
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (signing !== "missing") {
      headers["x-processing-key"] = credentials.key;
      headers["x-processing-signature"] =
        signing === "wrong"
          ? "ab".repeat(64)
          : createHmac("sha512", credentials.secret).update(body, "latin1").digest("hex");
    }
    return request(path, { method, headers, body: Buffer.from(body, "latin1") });
  };

  /** A dashboard request as the merchant's browser sends it, or as a stranger or another site would. */
  const dashboard = (path: string, body: string, caller: Caller, method = "POST") =>
    request(path, {
      method,
      body: method === "GET" ? undefined : Buffer.from(body),
      headers: {
        "content-type": "application/json",
        ...(caller !== "signed-out" && { cookie: sessionCookie }),
        origin: caller === "cross-site" ? "https://evil.example" : server.base,
      },
    });

  beforeAll(async () => {
    installation = await createInstallation();
    server = await startKassa(installation, { env: { KASSA_RATE_LIMIT_PER_SECOND: "0" } });
    merchant = await fundedMerchant(installation, [
      ["LTC", "100"],
      ["EUR", "10000"],
    ]);
    other = await newMerchant(installation, "Other Shop");
    // The same merchant in the dashboard, so what its session creates counts in "nothing lost".
    sessionCookie = await signIn(server.base, merchant);
    // Confirmed, so the fuzz reaches the sensitive routes' own checks while the window lasts.
    await stepUp(server.base, sessionCookie, merchant.password);
    // A real invoice whose checkout the customer-facing fuzz drives (no currency fixed yet).
    const invoice = await send(
      "/api/v2/invoices/create",
      invoiceBody("fuzz-checkout", { timer: false, sender_currency: undefined }),
      "valid",
    );
    expect(invoice.status, invoice.text).toBe(201);
    created.count++;
    token = (JSON.parse(invoice.text).data.url as string).split("/pay/")[1]!;
    invoiceId = JSON.parse(invoice.text).data.id;
    // A real payment link whose public page and start the customer-facing fuzz drives.
    const link = await send("/api/v2/payment-links/create", JSON.stringify(paymentLinkBody), "valid");
    expect(link.status, link.text).toBe(201);
    linkToken = (JSON.parse(link.text).data.url as string).split("/link/")[1]!;
  });
  afterAll(async () => {
    await kill(server, "SIGTERM");
    await installation.cleanup();
  });

  /**
   * `creates`: a 201 adds one transaction, or (bulk payouts) the count the answer says it added: a
   * batch repeated by its reference adds none.
   */
  const endpoints: { path: string; valid: Record<string, unknown>; creates?: Creates; method?: string }[] = [
    { path: "/api/v2/invoices/create", valid: JSON.parse(invoiceBody("fuzz")), creates: true },
    { path: "/api/v2/withdrawal/crypto", valid: JSON.parse(withdrawalBody("fuzz")), creates: true },
    { path: "/api/v2/crypto/withdrawal_instant", valid: instantBody, creates: true },
    { path: "/api/v2/transactions/info", valid: { id: 1 }, method: "GET" },
    { path: "/api/v2/transactions/info", valid: { foreign_id: "x" } },
    {
      path: "/api/v2/exchange/calculate",
      valid: { sender_currency: "EUR", receiver_currency: "BTC", sender_amount: "100" },
    },
    {
      path: "/api/v2/exchange/fixed",
      valid: {
        sender_currency: "EUR",
        receiver_currency: "BTC",
        sender_amount: "100",
        price: "0.00001653",
        foreign_id: "fx",
      },
      creates: true,
    },
    {
      path: "/api/v2/exchange/now",
      valid: { sender_currency: "EUR", receiver_currency: "BTC", sender_amount: "100", foreign_id: "fx" },
      creates: true,
    },
    { path: "/api/v2/currencies/pairs", valid: { currency_from: "BTC" } },
    { path: "/api/v2/currencies/rates", valid: { currency_from: "BTC", currency_to: "EUR" } },
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
    {
      path: "/api/v2/withdrawal/batch",
      valid: { reference: "fuzz-batch", ...batchSender, payouts: [batchPayout("fuzz-batch-1")] },
      creates: (text) => {
        const { id, payouts } = JSON.parse(text).data as { id: number; payouts: unknown[] };
        if (seenBatches.has(id)) return 0;
        seenBatches.add(id);
        return payouts.length;
      },
    },
    { path: "/api/v2/withdrawal/batch/info", valid: { reference: "fuzz-batch" } },
    { path: "/api/v2/payment-links/create", valid: paymentLinkBody },
    { path: "/api/v2/payment-links/list", valid: { page: 1 } },
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
            if (status === 201 && endpoint.creates && signing !== "other")
              created.count += countOf(endpoint.creates, text);
          },
        ),
        { numRuns: RUNS },
      );
    });
  }

  it("answers a lone surrogate in a signed body with 400 bad_content_format, and takes a paired one", async () => {
    // Escapes written by hand: JSON.stringify would not produce the mixed case.
    const lone = invoiceBody("fuzz-lone").replace('"title":"System test"', '"title":"\\ud800 test"');
    const answer = await send("/api/v2/invoices/create", lone, "valid");
    expect(answer.status, answer.text).toBe(400);
    expect(JSON.parse(answer.text)).toEqual({ error: "Bad content format", code: "bad_content_format" });
    const paired = invoiceBody("fuzz-paired").replace(
      '"title":"System test"',
      '"title":"\\uD83D\\uDE00 test"',
    );
    const ok = await send("/api/v2/invoices/create", paired, "valid");
    expect(ok.status, ok.text).toBe(201);
    created.count++;
    const info = await send("/api/v2/transactions/info", '{"foreign_id": "fuzz-paired"}', "valid");
    expect(JSON.parse(info.text).id).toBe(JSON.parse(ok.text).data.id);
  });

  it("reads numbers by value on every face: 5.0 is 5, 1e-05 is 0.00001", async () => {
    const info = await send("/api/v2/transactions/info", `{"id": ${invoiceId}.0}`, "valid");
    expect(info.status, info.text).toBe(200);
    expect(JSON.parse(info.text).id).toBe(invoiceId);
    const quote = await send(
      "/api/v2/exchange/calculate",
      '{"sender_currency": "BTC", "receiver_currency": "LTC", "sender_amount": 1e-02}',
      "valid",
    );
    expect(quote.status, quote.text).toBe(200);
    expect(JSON.parse(quote.text).data.sender_amount).toBe("0.01000000");
    const exact = await send(
      "/api/v2/exchange/calculate",
      '{"sender_currency": "BTC", "receiver_currency": "LTC", "sender_amount": 12345678.123456789}',
      "valid",
    );
    expect(exact.status).toBe(400);
    expect(JSON.parse(exact.text).errors.sender_amount).toMatch(/decimal places/);
    const dashboardQuote = await dashboard(
      "/api/dashboard/quote",
      '{"currency": "EUR", "convert_to": "BTC", "amount": 1.5e2}',
      "signed-in",
    );
    expect(dashboardQuote.status, dashboardQuote.text).toBe(200);
    expect(JSON.parse(dashboardQuote.text).principal).toBe("150.00000000");
  });

  it("answers a dashboard quote without amounts with a 400 field error", async () => {
    const answer = await dashboard(
      "/api/dashboard/quote",
      '{"currency":"BTC","convert_to":"ETH"}',
      "signed-in",
    );
    expect(answer.status, answer.text).toBe(400);
    expect(JSON.parse(answer.text).fields).toEqual({
      amount: "The amount field is required when amount_to is not present.",
    });
  });

  const dashboardEndpoints: {
    path: string;
    valid: Record<string, unknown>;
    creates?: Creates;
    method?: string;
    isPublic?: boolean;
  }[] = [
    {
      path: "/api/dashboard/payout-batches/check",
      valid: { file: batchFile("fuzz-file-0"), ...batchSender },
    },
    { path: "/api/dashboard/payment-links", valid: paymentLinkBody },
    {
      path: "/api/dashboard/payout-batches",
      valid: { file: batchFile("fuzz-file-1"), ...batchSender },
      creates: (text) => {
        const sent = JSON.parse(text) as { is_repeat: boolean; payouts: number };
        return sent.is_repeat ? 0 : sent.payouts;
      },
    },
    { path: "/api/dashboard/invoices", valid: JSON.parse(invoiceBody("fuzz-dash")), creates: true },
    { path: "/api/dashboard/withdrawals", valid: JSON.parse(withdrawalBody("fuzz-dash")), creates: true },
    { path: "/api/dashboard/withdrawals/instant", valid: { ...instantBody, foreign_id: "d" }, creates: true },
    { path: "/api/dashboard/quote", valid: { currency: "EUR", convert_to: "BTC", amount: "100" } },
    { path: "/api/dashboard/api-keys", valid: { label: "fuzz" } },
    { path: "/api/dashboard/callback-url", valid: { callback_url: "" }, method: "PUT" },
    { path: "/api/dashboard/onboarding", valid: { name: "Fuzz Shop", key_label: "k" } },
    {
      path: "/api/dashboard/sandbox/payments",
      valid: { address: "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu", currency: "BTC", amount: "0.1" },
    },
    { path: "/api/dashboard/sandbox/credit", valid: { currency: "EUR", amount: "10" } },
    { path: "/api/dashboard/sandbox/blocks", valid: { currency: "BTC", count: "1" } },
    // A wrong current password: the fuzz must not lock itself out.
    { path: "/api/dashboard/password", valid: { current_password: "wrong", new_password: "x".repeat(12) } },
    {
      path: "/api/dashboard/totp/enable",
      valid: { secret: "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP", code: "123456", password: "wrong" },
    },
    { path: "/api/dashboard/totp/disable", valid: { password: "wrong" } },
    { path: "/api/dashboard/callbacks/1/resend", valid: {} },
    { path: "/api/dashboard/callbacks/retry-pending", valid: {} },
    { path: "/api/dashboard/callbacks/test", valid: {} },
    {
      path: "/api/dashboard/signup",
      valid: { name: "Fuzz", email: "fuzz-signup@example.com", password: "a long password 1" },
      isPublic: true,
    },
    { path: "/api/dashboard/signup/confirm", valid: { token: "not-a-real-token" }, isPublic: true },
    { path: "/api/dashboard/password-reset", valid: { email: "fuzz-reset@example.com" }, isPublic: true },
    {
      path: "/api/dashboard/password-reset/confirm",
      valid: { token: "not-a-real-token", password: "a long password 2" },
      isPublic: true,
    },
  ];

  for (const endpoint of dashboardEndpoints) {
    it(`${endpoint.method ?? "POST"} ${endpoint.path} never answers 5xx`, async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.oneof({ weight: 4, arbitrary: mutated(endpoint.valid) }, { weight: 1, arbitrary: rawBodies }),
          fc.constantFrom<Caller>(
            "signed-in",
            "signed-in",
            "signed-in",
            "signed-in",
            "signed-out",
            "cross-site",
          ),
          async (body, caller) => {
            const { status, text } = await dashboard(endpoint.path, body, caller, endpoint.method);
            expect(status, `${status} for ${body.slice(0, 200)}: ${text.slice(0, 200)}`).toBeLessThan(500);
            if (caller === "cross-site" || (caller === "signed-out" && !endpoint.isPublic))
              expect(status, text).toBeGreaterThanOrEqual(400);
            if (status === 201 && endpoint.creates) created.count += countOf(endpoint.creates, text);
          },
        ),
        { numRuns: RUNS },
      );
    });
  }

  it("a payment link's public page and start never answer 5xx, and each started visit is one invoice", async () => {
    const visitor = {
      sender_type: "natural",
      sender_data: { first_name: "Ada", last_name: "L", date_of_birth: "1990-12-10" },
    };
    await fc.assert(
      fc.asyncProperty(
        fc.oneof({ weight: 4, arbitrary: mutated(visitor) }, { weight: 1, arbitrary: rawBodies }),
        fc.oneof(
          fc.constant(linkToken),
          fc.constant(linkToken),
          fc.string({ maxLength: 80 }).map(encodeURIComponent),
        ),
        async (body, path) => {
          for (const view of [await request(`/api/link/${path}`), await request(`/link/${path}`)])
            expect(view.status, view.text.slice(0, 200)).toBeLessThan(500);
          const started = await request(`/api/link/${path}/start`, {
            method: "POST",
            body: Buffer.from(body),
            headers: { "content-type": "application/json" },
          });
          expect(started.status, `${body.slice(0, 200)}: ${started.text.slice(0, 200)}`).toBeLessThan(500);
          if (started.status === 201) created.count++;
        },
      ),
      { numRuns: RUNS },
    );
  });

  it("the checkout API never answers 5xx, for its real invoice and for guessed tokens", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof({ weight: 4, arbitrary: mutated({ currency: "BTC" }) }, { weight: 1, arbitrary: rawBodies }),
        fc.oneof(
          fc.constant(token),
          fc.constant(token),
          fc.string({ maxLength: 80 }).map(encodeURIComponent),
        ),
        async (body, path) => {
          const view = await request(`/api/checkout/${path}`);
          expect(view.status, view.text.slice(0, 200)).toBeLessThan(500);
          if (path === token) expect(view.status, view.text.slice(0, 200)).toBe(200);
          const fixed = await request(`/api/checkout/${path}/currency`, {
            method: "POST",
            body: Buffer.from(body),
            headers: { "content-type": "application/json" },
          });
          expect(
            fixed.status,
            `${fixed.status} for ${body.slice(0, 200)}: ${fixed.text.slice(0, 200)}`,
          ).toBeLessThan(500);
        },
      ),
      { numRuns: RUNS * 2 },
    );
  });

  /** Path segments and query values PostgreSQL would refuse or that overflow its types, spelled as a URL carries them. */
  const hostileSegments = [
    "%00",
    "a%00b",
    "%ED%A0%80", // a lone surrogate in UTF-8 form (invalid UTF-8)
    "%ED%B0%80",
    "%C0%80", // overlong NUL
    "%FF",
    "%F0%9F%98%80",
    "99999999999999999999",
    "9223372036854775808",
    "-1",
    "1e3",
    "5.0",
    "0x10",
    "%25",
    "%E0%A4%A", // an escape cut short
    "%",
    "%zz",
    // Dates the calendar or PostgreSQL does not have, for the explorer's and the export's filters.
    "0000-01-01",
    "1969-12-31",
    "275760-09-14",
    "2024-02-30",
    "x".repeat(5_000),
  ];

  it("path parameters and query strings that reach the database never answer 5xx", async () => {
    const signed = (path: string) => send(path, "{}", "valid");
    for (const segment of hostileSegments) {
      const label = segment.slice(0, 30);
      const answers = [
        ["v2 cancel", await signed(`/api/v2/invoices/${segment}/cancel`)],
        ["v2 unknown", await signed(`/api/v2/${segment}`)],
        ["checkout", await request(`/api/checkout/${segment}`)],
        [
          "checkout currency",
          await request(`/api/checkout/${segment}/currency`, {
            method: "POST",
            body: Buffer.from('{"currency":"BTC"}'),
            headers: { "content-type": "application/json" },
          }),
        ],
        ["checkout qr", await request(`/api/checkout/${segment}/qr.svg`)],
        ["checkout link", await request(`/api/checkout/${segment}/link.svg`)],
        ["pay page", await request(`/pay/${segment}`)],
        ["dashboard page", await dashboard(`/dashboard/transactions/${segment}`, "", "signed-in", "GET")],
        ["auth", await request(`/api/auth/${segment}`)],
        ["auth callback", await request(`/api/auth/callback/${segment}`, { method: "POST" })],
        ["auth callback GET", await request(`/api/auth/callback/credentials?x=${segment}`)],
        ["auth callbackUrl", await request(`/api/auth/signin?callbackUrl=${segment}`)],
        [
          "auth callback cookie",
          await request("/api/auth/session", { headers: { cookie: `next-auth.callback-url=${segment}` } }),
        ],
        ["transaction", await dashboard(`/api/dashboard/transactions/${segment}`, "", "signed-in", "GET")],
        ["revoke", await dashboard(`/api/dashboard/api-keys/${segment}/revoke`, "{}", "signed-in")],
        ["bulk payout", await dashboard(`/api/dashboard/payout-batches/${segment}`, "", "signed-in", "GET")],
        [
          "bulk result",
          await dashboard(`/api/dashboard/payout-batches/${segment}/result`, "", "signed-in", "GET"),
        ],
        [
          "bulk approve",
          await dashboard(`/api/dashboard/payout-batches/${segment}/approve`, "{}", "signed-in"),
        ],
        ["bulk page", await dashboard(`/dashboard/payouts/bulk/${segment}`, "", "signed-in", "GET")],
        ["link deactivate", await signed(`/api/v2/payment-links/${segment}/deactivate`)],
        ["link page", await request(`/link/${segment}`)],
        ["link qr", await request(`/api/link/${segment}/qr.svg`)],
        ["dashboard link", await dashboard(`/dashboard/payment-links/${segment}`, "", "signed-in", "GET")],
        ["resend", await dashboard(`/api/dashboard/callbacks/${segment}/resend`, "{}", "signed-in")],
        ["callbacks", await dashboard(`/api/dashboard/callbacks?before=${segment}`, "", "signed-in", "GET")],
        ...(await Promise.all(
          ["q", "type", "status", "currency", "from", "to", "before"].map(
            async (name) =>
              [
                `explorer ${name}`,
                await dashboard(`/api/dashboard/transactions?${name}=${segment}`, "", "signed-in", "GET"),
              ] as const,
          ),
        )),
        ...(await Promise.all(
          ["q", "from", "to"].map(
            async (name) =>
              [
                `export ${name}`,
                await dashboard(
                  `/api/dashboard/transactions/export?${name}=${segment}`,
                  "",
                  "signed-in",
                  "GET",
                ),
              ] as const,
          ),
        )),
      ] as const;
      for (const [what, answer] of answers) {
        expect(answer.status, `${what} ${label}: ${answer.text.slice(0, 200)}`).toBeLessThan(500);
      }
    }
  });

  it("refuses a date filter the database cannot hold with a 400 field error, in the explorer and the export", async () => {
    for (const path of ["/api/dashboard/transactions", "/api/dashboard/transactions/export"]) {
      const answer = await dashboard(`${path}?from=0000-01-01`, "", "signed-in", "GET");
      expect(answer.status, `${path}: ${answer.text.slice(0, 200)}`).toBe(400);
      expect(JSON.parse(answer.text).fields.from).toMatch(/YYYY-MM-DD/);
    }
  });

  /** One address of each face: the API, the dashboard's pages and API, the checkout, sign-in. */
  const faces = [
    "/",
    "/api/v2/ping",
    "/dashboard",
    "/api/dashboard/balances",
    "/pay/x",
    "/api/checkout/x",
    "/api/auth/session",
    "/api/auth/callback/credentials",
  ];

  it("answers methods no route has with 405 and OPTIONS * with 400, on every face", async () => {
    for (const path of faces) {
      for (const method of ["TRACE", "PROPFIND", "PURGE"]) {
        const answer = await request(path, { method, headers: { cookie: sessionCookie } });
        expect(answer.status, `${method} ${path}: ${answer.text.slice(0, 200)}`).toBe(405);
        expect(JSON.parse(answer.text).code).toBe("method_not_allowed");
      }
    }
    const star = await request("*", { method: "OPTIONS" });
    expect(star.status, star.text).toBe(400);
  });

  it("refuses a 20 MB sign-in body with 413 and one without a length with 411, unread", async () => {
    // The server answers from the headers and reads nothing, so the client only writes a few bytes
    // (writing all 20 MB to a server that has answered and closed would fail on the client's side).
    const form = { "content-type": "application/x-www-form-urlencoded" };
    const declared = await request("/api/auth/callback/credentials", {
      method: "POST",
      headers: { ...form, "content-length": String(20 * 1024 * 1024) },
      body: Buffer.from("email=a"),
    });
    expect(declared.status, declared.text).toBe(413);
    expect(JSON.parse(declared.text).code).toBe("payload_too_large");
    const chunked = await request("/api/auth/callback/credentials", {
      method: "POST",
      headers: { ...form, "transfer-encoding": "chunked" },
      body: Buffer.from("email=a"),
    });
    expect(chunked.status, chunked.text).toBe(411);
  });

  it("next-auth's endpoints never answer 5xx, whatever the form or JSON body", async () => {
    const csrf = await request("/api/auth/csrf");
    const csrfToken = JSON.parse(csrf.text).csrfToken as string;
    // A stranger's e-mail: the fuzz must not slow the merchant's own sign-in down.
    const valid = {
      csrfToken,
      email: "fuzz-auth@example.com",
      password: "wrong password",
      code: "123456",
      callbackUrl: "/dashboard",
      json: "true",
    };
    const asForm = (json: string) =>
      new URLSearchParams(
        Object.entries(JSON.parse(json) as Record<string, unknown>).map(([k, v]) => [
          k,
          typeof v === "string" ? v : (JSON.stringify(v) ?? ""),
        ]),
      ).toString();
    await fc.assert(
      fc.asyncProperty(
        fc.oneof({ weight: 4, arbitrary: mutated(valid).map(asForm) }, { weight: 1, arbitrary: rawBodies }),
        fc.constantFrom(
          "/api/auth/callback/credentials",
          "/api/auth/signin/credentials",
          "/api/auth/signout",
          "/api/auth/session",
          "/api/auth/_log",
        ),
        fc.constantFrom("application/x-www-form-urlencoded", "application/json", "text/plain"),
        fc.boolean(),
        async (body, path, contentType, isSignedIn) => {
          const { status, text } = await request(path, {
            method: "POST",
            body: Buffer.from(body),
            headers: {
              "content-type": contentType,
              cookie: isSignedIn ? sessionCookie : "",
              origin: server.base,
            },
          });
          expect(status, `${status} ${path} for ${body.slice(0, 200)}: ${text.slice(0, 200)}`).toBeLessThan(
            500,
          );
        },
      ),
      { numRuns: RUNS * 2 },
    );
    // A fuzzed sign-out may have ended the merchant's sessions: the tests after this one sign in again.
    sessionCookie = await signIn(server.base, merchant);
    // The fuzzed wrong passwords may have the user's confirmations waiting (429): the routes then
    // answer confirmation_required, still never a 5xx.
    await stepUp(server.base, sessionCookie, merchant.password).catch(() => undefined);
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
