// First: every AsyncLocalStorage created after it shares one of Node's (server/shared-async-local-storage.ts).
import "@/server/install-shared-async-local-storage";
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import { Server as NetServer, type Socket } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import next from "next";
import type { EngineRefusal, EngineStarted } from "@/lib/host/engine-protocol";
import { createApiRouter } from "@/server/api-routes";
import { ConnectionTracker } from "@/server/connections";
import { createRequestHandler } from "@/server/create-request-handler";
import { compiledEngine, type EngineClient, loopbackEngine } from "@/server/engine-client";
import { ENGINE_TOKEN_ENV } from "@/server/engine-contract";
import { applyHeapGrowthSetting } from "@/server/heap-growth";
import { listenAddress } from "@/server/listen-address";
import { loadApiRoutes } from "@/server/load-compiled-route";
import { printBanner } from "@/server/print-banner";
import { quietBrokenPipes } from "@/server/quiet-broken-pipes";
import { switchOffStoresWhenIdle } from "@/server/shared-async-local-storage";
import { applySourceMapSetting } from "@/server/source-maps";

/**
 * Kassa's entry point (DESIGN.md section 1): a node:http server around Next.js that imports nothing from
 * lib/ (types aside): the engine runs inside Next's compiled routes (app/internal/engine/route.ts starts
 * and stops it), so the process has one copy of lib/. The server buffers GET bodies under /api/v2 (the App
 * Router drops them), serves the /api/v2 fast path (server/serve-api-route.ts), drains before stopping.
 */
const projectDir = path.dirname(fileURLToPath(import.meta.url));

/** While stopping, how long a keep-alive connection may stay silent before it is closed. */
const IDLE_CLOSE_MS = 5_000;

/**
 * How long after the last request that used them the request stores are switched off, taking Node's
 * promise hooks off every API request (server/shared-async-local-storage.ts): time for what a page
 * leaves running after its response closed.
 */
const STORES_IDLE_MS = 2_000;

function cannotStart(reason: string): never {
  console.error(`Kassa could not start: ${reason}`);
  process.exit(1);
}

async function startEngine(engine: EngineClient): Promise<EngineStarted> {
  const reply = await engine({ action: "start" });
  if (reply.status !== 200) cannotStart((reply.body as EngineRefusal).error);
  return reply.body as EngineStarted;
}

async function main(): Promise<void> {
  quietBrokenPipes();
  switchOffStoresWhenIdle(STORES_IDLE_MS);
  const isDev = process.env.NODE_ENV !== "production";
  applySourceMapSetting(process.env, isDev);
  applyHeapGrowthSetting(process.env);
  const { port, host } = listenAddress();
  const token = randomBytes(32).toString("hex");
  process.env[ENGINE_TOKEN_ENV] = token;

  const app = next({ dev: isDev, dir: projectDir, hostname: "localhost", port });
  await app.prepare();
  const distDir = path.join(projectDir, ".next");
  // In development Next compiles on demand: the engine is reached over loopback once the server
  // listens, and Next serves /api/v2 too, so edits to the handlers reload without a restart
  // (why not one path: docs/decisions/request-paths.md).
  let engine: EngineClient | undefined = isDev ? undefined : await compiledEngine(distDir, token);
  let started = engine ? await startEngine(engine) : undefined;
  const apiRouter = started?.apiFastPath === true ? createApiRouter(await loadApiRoutes(distDir)) : undefined;

  let engineReady: (client: EngineClient) => void = () => {};
  const handleRequest = createRequestHandler({
    handleNext: app.getRequestHandler(),
    engine: engine ? Promise.resolve(engine) : new Promise((resolve) => (engineReady = resolve)),
    // Asked only once the engine has started (every request waits for it).
    bodyLimitBytes: () => started!.bodyLimitBytes,
    apiRouter,
    loopbackEngineToken: isDev ? token : undefined,
    isHttpsOnly: () => started?.isHttpsOnly === true,
  });
  // Responses not yet finished, and since when each open connection has had none, so that a stop
  // can wait for the first and close the second; once stopping, each answer closes its connection,
  // so keep-alive clients go elsewhere instead of sending more to a closing server.
  const connections = new ConnectionTracker();
  let isStopping = false;
  const server = createServer((req, res) => {
    connections.started(req, res);
    if (isStopping) res.setHeader("connection", "close");
    handleRequest(req, res);
  });
  server.on("connection", (socket: Socket) => connections.opened(socket));
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.requestTimeout = 30_000;

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, resolve);
  });
  const address = server.address();
  const boundPort = typeof address === "object" && address ? address.port : port;
  engine ??= loopbackEngine(`http://127.0.0.1:${boundPort}`, token);
  started ??= await startEngine(engine);
  engineReady(engine);
  await engine({ action: "listening", port: boundPort });
  printBanner({ base: `http://localhost:${boundPort}`, isDev, started });

  /**
   * Resolves true once no request is in flight and no connection is open, false after `ms`. Meanwhile it
   * closes connections silent for IDLE_CLOSE_MS unless bytes of a next request arrived, judged right after
   * the event loop read the sockets (setImmediate). Why: docs/decisions/stopping-the-server.md.
   */
  let idleClosed = 0;
  const drained = async (ms: number): Promise<boolean> => {
    const deadline = Date.now() + ms;
    while (connections.inFlight > 0 || connections.open > 0) {
      if (Date.now() >= deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, 100));
      await new Promise((resolve) => setImmediate(resolve));
      idleClosed += connections.closeIdle(IDLE_CLOSE_MS);
    }
    return true;
  };

  // A stop (SIGTERM from an orchestrator, Ctrl-C): stop accepting, end the checkout streams, let the
  // requests in flight and the running jobs finish within the grace period, then close the database.
  const shutdown = async (signal: string) => {
    if (isStopping || !engine) return;
    isStopping = true;
    const graceSeconds = started?.shutdownGraceSeconds ?? 25;
    console.log(
      `[server] ${signal}: finishing requests in flight and jobs (up to ${graceSeconds} s), then closing the database`,
    );
    connections.forEachInFlight((res) => {
      if (!res.headersSent) res.setHeader("connection", "close");
    });
    // Development reaches the engine over this very server, so it stops the engine before closing.
    if (isDev) await engine({ action: "stop" });
    // Stop accepting. Not http.Server's close, which would also drop idle keep-alive connections
    // that a client may be sending its next request on this very moment: drained() closes them.
    NetServer.prototype.close.call(server);
    if (!isDev) {
      await engine({ action: "drain" });
      if (!(await drained(graceSeconds * 1000)))
        console.error(
          `[server] ${connections.inFlight} requests still open after ${graceSeconds} s; closing them`,
        );
    }
    server.closeAllConnections();
    if (!isDev) await engine({ action: "stop" });
    console.log(`[server] stopped (${idleClosed} idle connections closed)`);
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
