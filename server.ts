import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import next from "next";
import { requestContextStorage } from "@/lib/api/request-context";
import { ConfigError } from "@/lib/config";
import { MasterKeyError } from "@/lib/crypto/master-key";
import { registerDatabase, unregisterDatabase } from "@/lib/db/client";
import { DataDirLockedError } from "@/lib/db/data-dir-lock";
import { getConfig } from "@/lib/runtime";
import { seedDemoMerchant } from "@/lib/seed/seed-demo";
import { matchApiRoute, serveApiRoute } from "@/lib/server/api-fast-path";
import { startBackground } from "@/lib/server/background";
import { bootDatabase } from "@/lib/server/boot";
import { bufferBody } from "@/lib/server/buffer-body";
import { CLI_BRIDGE_PATH, handleCliBridge } from "@/lib/server/cli-bridge";
import { isUndecodablePath } from "@/lib/server/is-undecodable-path";
import { quietBrokenPipes } from "@/lib/server/quiet-broken-pipes";

/**
 * Kassa's entry point (DESIGN.md section 1). It buffers the bodies of GET requests under /api/v2
 * (with a cap) because the App Router drops them; in production it serves the /api/v2 routes itself,
 * calling their route handlers without Next's request pipeline (lib/server/api-fast-path.ts); it owns
 * the process lifecycle (database, lock, graceful shutdown); and it hosts in-process background work.
 */
const hasBody = (req: IncomingMessage) =>
  req.headers["transfer-encoding"] !== undefined || Number(req.headers["content-length"] ?? "0") > 0;

const pathOf = (url: string) => {
  const query = url.indexOf("?");
  return query < 0 ? url : url.slice(0, query);
};

const projectDir = path.dirname(fileURLToPath(import.meta.url));

async function main(): Promise<void> {
  quietBrokenPipes();
  const config = getConfig();
  const isDev = process.env.NODE_ENV !== "production";
  const { handle, box, lock } = await bootDatabase(config, "server");
  registerDatabase(handle);
  const demo = config.seedDemo ? await seedDemoMerchant(handle.db, box, config.dataDir) : undefined;
  const background = config.runJobs ? startBackground(handle.db, config) : undefined;

  const app = next({ dev: isDev, dir: projectDir, hostname: "localhost", port: config.port });
  await app.prepare();
  const handleNext = app.getRequestHandler();
  const storage = requestContextStorage();
  // In development Next serves /api/v2 too, so edits to the handlers reload without a restart.
  const useFastPath = !isDev && config.apiFastPath;

  const handleRequest = async (req: IncomingMessage, res: ServerResponse) => {
    const requestId = randomUUID();
    res.setHeader("x-request-id", requestId);
    const url = req.url ?? "/";
    if (url === CLI_BRIDGE_PATH && lock) {
      const { body } = await bufferBody(req, config.bodyLimitBytes);
      return handleCliBridge(req, res, body, {
        db: handle.db,
        box,
        isSandbox: config.isSandbox,
        token: lock.info.token,
      });
    }
    if (isUndecodablePath(url)) {
      res.writeHead(404, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" });
      return res.end(JSON.stringify({ error: "Not found", code: "not_found" }));
    }
    // The merchant API's fast path: the same route handlers, without Next's request pipeline.
    const api =
      useFastPath && url.startsWith("/api/v2/") ? matchApiRoute(req.method ?? "", pathOf(url)) : undefined;
    if (api) {
      const { body, isTooLarge } = await bufferBody(req, config.bodyLimitBytes);
      if (isTooLarge) res.setHeader("connection", "close");
      return storage.run({ requestId, rawBody: body, bodyTooLarge: isTooLarge }, () =>
        serveApiRoute(api, req, res),
      );
    }
    // Next.js drops the body of a GET, and GET /api/v2/transactions/info carries one: buffer it
    // here (under the cap) for the route. Other methods keep their stream, read by the route.
    if (req.method === "GET" && url.startsWith("/api/v2/") && hasBody(req)) {
      const { body, isTooLarge } = await bufferBody(req, config.bodyLimitBytes);
      if (isTooLarge) res.setHeader("connection", "close");
      return storage.run({ requestId, rawBody: body, bodyTooLarge: isTooLarge }, () => handleNext(req, res));
    }
    return storage.run({ requestId, peerAddress: req.socket.remoteAddress }, () => handleNext(req, res));
  };

  const server = createServer((req, res) => {
    handleRequest(req, res).catch((error) => {
      console.error(`[server] request ${res.getHeader("x-request-id")} failed:`, error);
      if (!res.headersSent) {
        res.writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: "Internal server error", code: "internal_error" }));
      } else res.destroy();
    });
  });
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.requestTimeout = 30_000;

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.port, config.host, resolve);
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  lock?.update({ port });

  const base = `http://localhost:${port}`;
  console.log(`Kassa is running at ${base} (${isDev ? "development" : "production"}, ${config.mode} mode)`);
  console.log(
    `  database: ${config.databaseUrl ? "PostgreSQL (DATABASE_URL)" : `embedded PGlite in ${config.dataDir}`}`,
  );
  console.log(`  API:      ${base}/api/v2   reference: ${base}/docs/api`);
  console.log(
    `  jobs:     ${background ? "running in this process" : "off (KASSA_JOBS=off): run `npm run worker`"}`,
  );
  if (demo) {
    console.log("  Demo merchant (sandbox):");
    console.log(`    dashboard sign-in: ${demo.email} / ${demo.password}`);
    console.log(`    API key:    ${demo.api_key}`);
    console.log(`    API secret: ${demo.api_secret}`);
  }

  let isStopping = false;
  const shutdown = async (signal: string) => {
    if (isStopping) return;
    isStopping = true;
    console.log(`[server] ${signal}: finishing requests in flight, then closing the database`);
    const force = setTimeout(() => {
      console.error("[server] requests still open after 10 s; closing anyway");
      server.closeAllConnections();
    }, 10_000);
    force.unref();
    server.closeIdleConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await background?.stop();
    unregisterDatabase();
    await handle.close();
    lock?.release();
    console.log("[server] stopped");
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}

main().catch((error) => {
  const isExpected =
    error instanceof DataDirLockedError || error instanceof MasterKeyError || error instanceof ConfigError;
  console.error(isExpected ? `Kassa could not start: ${error.message}` : error);
  process.exit(1);
});
