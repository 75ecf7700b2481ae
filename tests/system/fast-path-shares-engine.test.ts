import { createHmac } from "node:crypto";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readEventStream } from "../support/event-stream";
import { waitUntil } from "../support/wait";
import {
  type Credentials,
  createInstallation,
  driver,
  type Installation,
  invoiceBody,
  type KassaProcess,
  kill,
  newMerchant,
  signed,
  startKassa,
} from "./harness";

// The production server serves /api/v2 two ways: the fast path (server/serve-api-route.ts) and
// Next.js's pipeline (HEAD, trailing slashes, other methods). Both must reach the same copy of the
// engine: the rate limiter is a plain module variable (lib/api/with-merchant-signature.ts), so one
// bucket per key across both ways shows one module graph. With two copies (the server's own import
// of lib/ next to Next's bundle, as before), each way would have a full bucket of its own.
const BURST = 3;
const REPORT_STORAGES = path.resolve(import.meta.dirname, "fixtures/report-async-storages.cjs");

function signedRequest(base: string, merchant: Credentials, method: "POST" | "HEAD") {
  const body = method === "HEAD" ? undefined : "{}";
  return fetch(`${base}/api/v2/accounts/list`, {
    method,
    body,
    signal: AbortSignal.timeout(20_000),
    headers: {
      "content-type": "application/json",
      "x-processing-key": merchant.key,
      "x-processing-signature": createHmac("sha512", merchant.secret)
        .update(body ?? "")
        .digest("hex"),
    },
  });
}

describe(`one engine behind both API paths on ${driver}`, () => {
  let installation: Installation;
  let server: KassaProcess;

  beforeAll(async () => {
    installation = await createInstallation();
    server = await startKassa(installation, {
      env: {
        KASSA_RATE_LIMIT_PER_SECOND: "0.001",
        KASSA_RATE_LIMIT_BURST: String(BURST),
        NODE_OPTIONS: `--require ${REPORT_STORAGES}`,
      },
    });
  });
  afterAll(async () => {
    await kill(server, "SIGTERM");
    await installation.cleanup();
  });

  it("counts fast-path requests against the bucket Next.js's pipeline checks", async () => {
    const merchant = await newMerchant(installation);
    for (let i = 0; i < BURST; i++) {
      expect((await signedRequest(server.base, merchant, "POST")).status).toBe(200);
    }
    // HEAD is not on the fast path: Next.js answers it by running the route's GET handler.
    expect((await signedRequest(server.base, merchant, "HEAD")).status).toBe(429);
  });

  it("counts Next.js's requests against the bucket the fast path checks", async () => {
    const merchant = await newMerchant(installation, "Second Shop");
    for (let i = 0; i < BURST; i++) {
      expect((await signedRequest(server.base, merchant, "HEAD")).status).toBe(200);
    }
    const refused = await signedRequest(server.base, merchant, "POST");
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ code: "rate_limited" });
  });

  // Next.js, React and the server each keep a request store; on Node 20 every store switched on is
  // copied onto every promise the process makes. The server carries all of them in one of Node's
  // (server/shared-async-local-storage.ts), so pages and API calls switch on exactly one.
  it("carries the framework's request stores and its own in one of Node's", async () => {
    const merchant = await newMerchant(installation, "Third Shop");
    for (const page of ["/login", "/signup", "/"]) {
      const response = await fetch(`${server.base}${page}`, { signal: AbortSignal.timeout(20_000) });
      expect(response.status).toBe(200);
      expect(await response.text()).toContain("<html");
    }
    await signedRequest(server.base, merchant, "POST");
    await signedRequest(server.base, merchant, "HEAD");
    const instances = new Set(server.log.join("").match(/(?<=\[async-storage\] switched on )#\d+/g));
    expect(instances.size).toBe(1);
  });

  // Once no page or route that uses the stores is in flight, the server switches that one off, and
  // signed API calls (the plain path, which needs none) run without Node's promise hooks.
  it("switches the stores off once pages are done, and on again for the next page", async () => {
    const merchant = await newMerchant(installation, "Fourth Shop");
    const events = () => server.log.join("").match(/\[async-storage\] switched (on|off)/g) ?? [];
    expect((await fetch(`${server.base}/login`, { signal: AbortSignal.timeout(20_000) })).status).toBe(200);
    await waitUntil(() => events().at(-1)?.endsWith("off"), { what: "the stores are switched off" });
    const before = events().length;
    for (let i = 0; i < 3; i++) expect((await signedRequest(server.base, merchant, "POST")).status).toBe(200);
    expect(events()).toHaveLength(before);
    const page = await fetch(`${server.base}/login`, { signal: AbortSignal.timeout(20_000) });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("<html");
    expect(events().slice(before, before + 1)).toEqual(["[async-storage] switched on"]);
  });

  // A customer on the checkout keeps its event stream open for minutes: the stream's route holds the
  // stores while it answers, not while its body is written, or one open checkout would keep them on.
  it("switches the stores off while a checkout's event stream stays open", async () => {
    const merchant = await newMerchant(installation, "Fifth Shop");
    const created = await signed(server.base, merchant, "/invoices/create", invoiceBody("stores-stream"));
    expect(created.status).toBe(201);
    const token = String(created.json.data!.url).split("/pay/")[1];
    const offs = () => server.log.join("").match(/\[async-storage\] switched off/g)?.length ?? 0;
    const before = offs();
    const stream = await fetch(`${server.base}/api/checkout/${token}/events`);
    expect(stream.headers.get("content-type")).toContain("text/event-stream");
    const reader = readEventStream(stream.body!);
    await waitUntil(() => reader.views.length > 0, { what: "the stream's first view" });
    await waitUntil(() => offs() > before, { what: "the stores are switched off" });
    expect(reader.isEnded()).toBe(false);
    await reader.cancel();
  });
});
