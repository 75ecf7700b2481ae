import fs from "node:fs";
import http, { type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ENDPOINTS } from "@/lib/openapi/endpoints";
import {
  type ApiRoute,
  apiRoutePaths,
  createApiRouter,
  type DirectCall,
  type Reply,
  type RouteHandler,
} from "@/server/api-routes";
import { createRequestHandler } from "@/server/create-request-handler";
import type { EngineClient } from "@/server/engine-client";
import responseHeaders from "@/server/response-headers.json";

const root = path.resolve(import.meta.dirname, "../..");
const apiDir = path.join(root, "app/api/v2");

/** Route files under app/api/v2 as Next's app-paths manifest names them (`/api/v2/ping/route`). */
function appPathsOnDisk(dir = apiDir): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return appPathsOnDisk(full);
    if (entry.name !== "route.ts") return [];
    return [`/${path.relative(path.join(root, "app"), full).replace(/\.ts$/, "")}`];
  });
}

/** The reference document is served under /api/v2 but is not an endpoint of the API. */
const NOT_AN_ENDPOINT = ["/api/v2/openapi.json"];
const definedPaths = () =>
  [...ENDPOINTS.map((e) => `/api/v2${e.path.replace(/\{([^}]+)\}/g, "[$1]")}`), ...NOT_AN_ENDPOINT].sort();

describe("the /api/v2 route table", () => {
  const table = apiRoutePaths(appPathsOnDisk());

  it("has a route file for every endpoint definition", () => {
    const missing = definedPaths().filter((p) => !table.includes(p));
    expect(missing, "endpoint definitions without a route file under app/api/v2").toEqual([]);
  });

  it("has an endpoint definition for every route file (the catch-all 404 aside)", () => {
    const undefinedRoutes = table.filter((p) => !definedPaths().includes(p));
    expect(undefinedRoutes, "route files without an endpoint definition").toEqual([]);
  });

  it("reads the table from a build's app paths: only /api/v2 route files, without the catch-all", () => {
    const manifestKeys = [
      "/(dashboard)/dashboard/page",
      "/api/dashboard/balances/route",
      "/api/v2/[...path]/route",
      "/api/v2/ping/route",
      "/internal/engine/route",
    ];
    expect(apiRoutePaths(manifestKeys)).toEqual(["/api/v2/ping"]);
  });

  it("routes each definition's method to the handler its route file exports", async () => {
    for (const endpoint of ENDPOINTS) {
      const routePath = `/api/v2${endpoint.path.replace(/\{([^}]+)\}/g, "[$1]")}`;
      const module = await import(/* @vite-ignore */ path.join(root, "app", routePath, "route.ts"));
      const router = createApiRouter([{ path: routePath, handlers: { GET: module.GET, POST: module.POST } }]);
      const concrete = routePath.replace("[foreign_id]", "order-1");
      expect(router(endpoint.method, concrete)?.handler, `${endpoint.method} ${routePath}`).toBe(
        module[endpoint.method],
      );
      // Every signed endpoint has the plain entry the fast path calls without a Web Request.
      if (endpoint.isSigned)
        expect(typeof module[endpoint.method].direct, `${endpoint.method} ${routePath}`).toBe("function");
    }
  });
});

describe("the fast path's router", () => {
  const handler: RouteHandler = () => new Response("ok");
  const router = createApiRouter([
    { path: "/api/v2/ping", handlers: { GET: handler } },
    { path: "/api/v2/invoices/[foreign_id]/cancel", handlers: { POST: handler } },
  ]);

  it("decodes path parameters the way Next.js does", () => {
    expect(router("POST", "/api/v2/invoices/order%2042%20%C3%BC/cancel")?.params).toEqual({
      foreign_id: "order 42 ü",
    });
  });

  it("leaves everything else to Next.js: other methods, trailing slashes, bad encodings, unknown paths", () => {
    expect(router("HEAD", "/api/v2/ping")).toBeUndefined();
    expect(router("OPTIONS", "/api/v2/ping")).toBeUndefined();
    expect(router("DELETE", "/api/v2/ping")).toBeUndefined();
    expect(router("POST", "/api/v2/ping")).toBeUndefined();
    expect(router("GET", "/api/v2/ping/")).toBeUndefined();
    expect(router("POST", "/api/v2/invoices/%E0%A4%A/cancel")).toBeUndefined();
    expect(router("POST", "/api/v2/invoices//cancel")).toBeUndefined();
    expect(router("POST", "/api/v2/invoices/a/b/cancel")).toBeUndefined();
    expect(router("POST", "/api/v2/nothing")).toBeUndefined();
  });
});

describe("the server's request handler on the fast path", () => {
  let server: http.Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    server = undefined;
  });

  /** A real node:http server with the production request handler over one route. */
  let nextAnswered: string[] = [];
  const engineClient = (async () => ({ status: 200, body: {} })) as EngineClient;
  async function serve(
    route: ApiRoute | ApiRoute[],
    {
      isHttpsOnly = false,
      engine = Promise.resolve(engineClient),
      /** What server.ts does before the handler: a stopping server sets `connection: close`. */
      before = (_req: IncomingMessage, _res: http.ServerResponse) => {},
    } = {},
  ): Promise<string> {
    nextAnswered = [];
    const handle = createRequestHandler({
      isHttpsOnly: () => isHttpsOnly,
      handleNext: async (req, res) => {
        nextAnswered.push(req.url ?? "");
        res.end("next");
      },
      engine,
      bodyLimitBytes: () => 1024,
      apiRouter: createApiRouter(Array.isArray(route) ? route : [route]),
    });
    server = http.createServer((req, res) => {
      before(req, res);
      handle(req, res);
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  /** A direct entry that records its calls and answers `reply`. */
  function recordingDirect(reply: Reply) {
    const calls: DirectCall[] = [];
    const direct = async (call: DirectCall) => {
      calls.push(call);
      return reply;
    };
    return { calls, direct };
  }

  /** A POST route with a `direct` entry; its Web entry is never called on the fast path. */
  const postRoute = (path: string, direct: (call: DirectCall) => Promise<Reply>): ApiRoute => ({
    path,
    handlers: { POST: Object.assign((() => new Response("web")) as RouteHandler, { direct }) },
  });

  it("answers an /api/v2 path with a trailing slash directly, on the fast path and through Next.js", async () => {
    const seen: string[] = [];
    const base = await serve({
      path: "/api/v2/invoices/[foreign_id]/cancel",
      handlers: {
        POST: async (request, { params }) => {
          seen.push(`${new URL(request.url).pathname} ${(await params).foreign_id}`);
          return Response.json([]);
        },
      },
    });
    for (const target of ["/api/v2/invoices/order-7/cancel/", "/api/v2/invoices/order-7/cancel"]) {
      const response = await fetch(`${base}${target}`, { method: "POST", body: "{}", redirect: "manual" });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual([]);
    }
    expect(seen).toEqual([
      "/api/v2/invoices/order-7/cancel order-7",
      "/api/v2/invoices/order-7/cancel order-7",
    ]);
    // What the fast path does not serve reaches Next.js without the slash (so no 308), the query kept.
    expect(await (await fetch(`${base}/api/v2/ping/?x=1`)).text()).toBe("next");
    expect(await (await fetch(`${base}/dashboard/`)).text()).toBe("next");
    expect(nextAnswered).toEqual(["/api/v2/ping?x=1", "/dashboard/"]);
  });

  it("aborts request.signal when the client goes away before the answer", async () => {
    let entered!: () => void;
    const handlerEntered = new Promise<void>((resolve) => (entered = resolve));
    let sawAbort!: (reason: unknown) => void;
    const aborted = new Promise((resolve) => (sawAbort = resolve));
    const base = await serve({
      path: "/api/v2/slow",
      handlers: {
        POST: async (request) => {
          request.signal.addEventListener("abort", () => sawAbort(request.signal.reason));
          entered();
          await aborted;
          return new Response("too late");
        },
      },
    });
    const client = http.request(`${base}/api/v2/slow`, { method: "POST" });
    client.on("error", () => {});
    client.end("{}");
    await handlerEntered;
    client.destroy();
    expect(String(await aborted)).toContain("closed the connection");
  });

  it("streams a body as the handler produces it, with the headers next.config.mjs gives every answer", async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const encoder = new TextEncoder();
    const base = await serve({
      path: "/api/v2/stream",
      handlers: {
        GET: () =>
          new Response(
            new ReadableStream({
              async start(controller) {
                controller.enqueue(encoder.encode("first,"));
                await released;
                controller.enqueue(encoder.encode("second"));
                controller.close();
              },
            }),
            { headers: { "content-type": "text/plain" } },
          ),
      },
    });
    const response = await new Promise<IncomingMessage>((resolve) =>
      http.get(`${base}/api/v2/stream`, resolve),
    );
    for (const { key, value } of [...responseHeaders.everyResponse, ...responseHeaders.routeHandlers])
      expect(response.headers[key.toLowerCase()]).toBe(value);
    // Nothing in an API answer may run or load anything, or be framed.
    expect(response.headers["content-security-policy"]).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(response.headers["strict-transport-security"]).toBeUndefined();
    expect(response.headers["transfer-encoding"]).toBe("chunked");
    const chunks: string[] = [];
    const firstChunk = new Promise<void>((resolve) =>
      response.on("data", (chunk: Buffer) => {
        chunks.push(chunk.toString());
        resolve();
      }),
    );
    await firstChunk;
    // The first part arrived while the handler's stream was still waiting: nothing was buffered.
    expect(chunks.join("")).toBe("first,");
    release();
    await new Promise((resolve) => response.on("end", resolve));
    expect(chunks.join("")).toBe("first,second");
  });

  it("puts Strict-Transport-Security on every answer of an https-only site, the fast path's and Next's", async () => {
    const direct = async () => ({ status: 200, headers: { "content-type": "application/json" }, body: "{}" });
    const broken = async (): Promise<Reply> => {
      throw new Error("escaped");
    };
    const web = (): RouteHandler => () => new Response("the Web entry", { status: 500 });
    const base = await serve(
      [
        { path: "/api/v2/json", handlers: { POST: () => Response.json({}) } },
        { path: "/api/v2/plain", handlers: { POST: Object.assign(web(), { direct }) } },
        { path: "/api/v2/broken", handlers: { POST: Object.assign(web(), { direct: broken }) } },
      ],
      { isHttpsOnly: true },
    );
    const api = await fetch(`${base}/api/v2/json`, { method: "POST", body: "{}" });
    const plain = await fetch(`${base}/api/v2/plain`, { method: "POST", body: "{}" });
    const failed = await fetch(`${base}/api/v2/broken`, { method: "POST", body: "{}" });
    const page = await fetch(`${base}/dashboard`);
    const refused = await fetch(`${base}/x`, { method: "PROPFIND" });
    expect([plain.status, failed.status, refused.status]).toEqual([200, 500, 405]);
    for (const response of [api, plain, failed, page, refused]) {
      expect(response.headers.get("strict-transport-security")).toBe("max-age=31536000");
      expect(response.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    }
    expect((await failed.json()).request_id).toBe(failed.headers.get("x-request-id"));
    // The fast path's answers carry the route handlers' headers as Next's do.
    for (const { key, value } of [...responseHeaders.everyResponse, ...responseHeaders.routeHandlers])
      expect(plain.headers.get(key)).toBe(value);
    // The server's own refusals carry the route handlers' headers too.
    for (const { key, value } of [...responseHeaders.everyResponse, ...responseHeaders.routeHandlers])
      expect(refused.headers.get(key)).toBe(value);
  });

  it("sends a one-chunk body (every JSON answer) with its Content-Length", async () => {
    const base = await serve({
      path: "/api/v2/json",
      handlers: { POST: () => Response.json({ data: "x".repeat(100) }) },
    });
    const response = await fetch(`${base}/api/v2/json`, { method: "POST", body: "{}" });
    const text = await response.text();
    expect(response.headers.get("content-length")).toBe(String(Buffer.byteLength(text)));
    expect(JSON.parse(text)).toEqual({ data: "x".repeat(100) });
  });

  it("answers a throw that escaped the handler with the API's JSON 500, carrying the request id", async () => {
    const base = await serve({
      path: "/api/v2/broken",
      handlers: {
        POST: () => {
          throw new Error("escaped");
        },
      },
    });
    const response = await fetch(`${base}/api/v2/broken`, { method: "POST", body: "{}" });
    expect(response.status).toBe(500);
    const requestId = response.headers.get("x-request-id");
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await response.json()).toEqual({
      error: "Internal server error. Quote this request id to support.",
      code: "internal_error",
      request_id: requestId,
    });
  });

  it("hands a route's direct entry the path, buffered body, headers, peer and id, and writes its plain answer", async () => {
    const calls: DirectCall[] = [];
    const direct = async (call: DirectCall) => {
      calls.push(call);
      return { status: 201, headers: { "content-type": "application/json" }, body: '{"data":"é"}' };
    };
    const web: RouteHandler = () => new Response("the Web entry", { status: 500 });
    const base = await serve({
      path: "/api/v2/things/[id]/make",
      handlers: { POST: Object.assign(web, { direct }) },
    });
    const response = await fetch(`${base}/api/v2/things/a%20b/make?x=1`, {
      method: "POST",
      body: '{"a":1}',
      headers: [
        ["X-Processing-Key", "k1"],
        ["x-processing-key", "k2"],
      ],
    });
    expect(response.status).toBe(201);
    expect(await response.text()).toBe('{"data":"é"}');
    expect(response.headers.get("content-length")).toBe(String(Buffer.byteLength('{"data":"é"}')));
    for (const { key, value } of [...responseHeaders.everyResponse, ...responseHeaders.routeHandlers])
      expect(response.headers.get(key)).toBe(value);
    const [call] = calls;
    expect(call?.path).toBe("/api/v2/things/a%20b/make");
    expect(call?.params).toEqual({ id: "a b" });
    expect(Buffer.from(call!.rawBody).toString()).toBe('{"a":1}');
    expect(call?.isBodyTooLarge).toBe(false);
    expect(call?.peerAddress).toBe("127.0.0.1");
    expect(call?.requestId).toBe(response.headers.get("x-request-id"));
    // As Headers would read them: any case, repeated fields joined.
    expect(call?.headers.get("X-PROCESSING-KEY")).toBe("k1, k2");
    expect(call?.headers.get("idempotency-key")).toBeNull();
  });

  it("keeps a header set before a direct answer (a stopping server's connection: close), with every other", async () => {
    const { direct } = recordingDirect({
      status: 200,
      headers: { "content-type": "application/json" },
      body: '{"a":1}',
    });
    const base = await serve(postRoute("/api/v2/plain", direct), {
      before: (_req, res) => res.setHeader("connection", "close"),
    });
    const response = await fetch(`${base}/api/v2/plain`, { method: "POST", body: "{}" });
    expect(await response.text()).toBe('{"a":1}');
    expect(response.headers.get("connection")).toBe("close");
    expect(response.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.headers.get("content-length")).toBe("7");
    expect(response.headers.get("content-type")).toBe("application/json");
    for (const { key, value } of [...responseHeaders.everyResponse, ...responseHeaders.routeHandlers])
      expect(response.headers.get(key)).toBe(value);
  });

  it("answers a direct route that arrived before the engine was up once it is, with one request id", async () => {
    const { calls, direct } = recordingDirect({ status: 200, headers: {}, body: "{}" });
    let engineUp: (client: EngineClient) => void = () => {};
    const base = await serve(postRoute("/api/v2/plain", direct), {
      engine: new Promise((resolve) => (engineUp = resolve)),
      // The engine comes up once the request is in the handler's hands.
      before: () => setImmediate(() => engineUp(engineClient)),
    });
    const response = await fetch(`${base}/api/v2/plain/`, { method: "POST", body: '{"b":2}' });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-request-id")).toBe(calls[0]?.requestId);
    expect(response.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(Buffer.from(calls[0]!.rawBody).toString()).toBe('{"b":2}');
    expect(calls[0]?.path).toBe("/api/v2/plain");
    for (const { key, value } of [...responseHeaders.everyResponse, ...responseHeaders.routeHandlers])
      expect(response.headers.get(key)).toBe(value);
  });

  it("tells a direct entry that the body was over the cap, and closes the connection", async () => {
    const { calls, direct } = recordingDirect({ status: 413, headers: {}, body: "{}" });
    const base = await serve(postRoute("/api/v2/big", direct));
    const response = await fetch(`${base}/api/v2/big`, { method: "POST", body: "x".repeat(2048) });
    expect(response.status).toBe(413);
    expect(response.headers.get("connection")).toBe("close");
    expect(calls[0]?.isBodyTooLarge).toBe(true);
    expect(calls[0]?.rawBody.byteLength).toBe(0);
  });

  it("never lets a network request through to the engine's door", async () => {
    const base = await serve({ path: "/api/v2/ping", handlers: { GET: () => new Response("OK") } });
    const response = await fetch(`${base}/internal/engine`, {
      method: "POST",
      headers: { "x-kassa-engine-token": "guess" },
      body: JSON.stringify({ action: "stop" }),
    });
    expect(response.status).toBe(404);
  });
});

describe("the server stays outside the engine", () => {
  it("imports no code from lib/ or app/ (types only), so the process has one copy of the engine", () => {
    const files = ["server.ts", ...fs.readdirSync(path.join(root, "server")).map((f) => `server/${f}`)];
    const offending = files
      .filter((file) => file.endsWith(".ts"))
      .flatMap((file) =>
        [
          ...fs
            .readFileSync(path.join(root, file), "utf8")
            .matchAll(/^import (?!type )[^;]*from "(@\/(?:lib|app)\/[^"]+)"/gm),
        ].map((match) => `${file}: ${match[1]}`),
      );
    expect(offending).toEqual([]);
  });
});
