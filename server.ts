import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import next from "next";
import type { EngineRefusal, EngineStarted } from "@/lib/server/engine-protocol";
import { createApiRouter } from "@/server/api-routes";
import { createRequestHandler } from "@/server/create-request-handler";
import { compiledEngine, type EngineClient, loopbackEngine } from "@/server/engine-client";
import { ENGINE_TOKEN_ENV } from "@/server/engine-contract";
import { listenAddress } from "@/server/listen-address";
import { loadApiRoutes } from "@/server/load-compiled-route";
import { printBanner } from "@/server/print-banner";
import { quietBrokenPipes } from "@/server/quiet-broken-pipes";

/**
 * Kassa's entry point (DESIGN.md section 1): a node:http server around Next.js. It imports nothing
 * from lib/ (types aside): the engine (database, jobs, the CLI's commands) runs inside Next's
 * compiled route graph, started and stopped through app/internal/engine/route.ts, so the process has
 * one copy of lib/ serving routes. The server listens, buffers GET bodies under /api/v2 (the App
 * Router drops them), serves the /api/v2 fast path from Next's own compiled handlers
 * (server/serve-api-route.ts), and drains requests before the engine stops.
 */
const projectDir = path.dirname(fileURLToPath(import.meta.url));

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
  const isDev = process.env.NODE_ENV !== "production";
  const { port, host } = listenAddress();
  const token = randomBytes(32).toString("hex");
  process.env[ENGINE_TOKEN_ENV] = token;

  const app = next({ dev: isDev, dir: projectDir, hostname: "localhost", port });
  await app.prepare();
  const distDir = path.join(projectDir, ".next");
  // In development Next compiles on demand: the engine is reached over loopback once the server
  // listens, and Next serves /api/v2 too, so edits to the handlers reload without a restart.
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
  const server = createServer(handleRequest);
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

  let isStopping = false;
  const shutdown = async (signal: string) => {
    if (isStopping || !engine) return;
    isStopping = true;
    console.log(`[server] ${signal}: finishing requests in flight, then closing the database`);
    const force = setTimeout(() => {
      console.error("[server] requests still open after 10 s; closing anyway");
      server.closeAllConnections();
    }, 10_000);
    force.unref();
    // Development reaches the engine over this very server, so it stops the engine first.
    if (isDev) await engine({ action: "stop" });
    server.closeIdleConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    if (!isDev) await engine({ action: "stop" });
    console.log("[server] stopped");
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
