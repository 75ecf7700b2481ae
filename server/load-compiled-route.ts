import fs from "node:fs";
import path from "node:path";
import { requirePage } from "next/dist/server/require";
import type { ApiRoute, RouteHandler } from "./api-routes";
import { apiRoutePaths } from "./api-routes";

/**
 * The fast path loads Next's compiled route modules (`.next/server/app/.../route.js`, via Next's own
 * `requirePage`), not the sources: importing app/ or lib/ under tsx would make a second engine copy (its
 * own database wrapper, rate limiter, caches). This way it calls the very handler, with the very module
 * state, that Next's pipeline calls. Why a fast path: docs/decisions/request-paths.md.
 */
type CompiledRoute = {
  routeModule: { ensureUserland?: () => Promise<void>; userland: Record<string, unknown> };
};

const METHODS = ["GET", "POST"] as const;

/** The exports of one compiled route (`/api/v2/ping` or `/internal/engine`). */
export async function loadCompiledRoute(
  distDir: string,
  routePath: string,
): Promise<Record<string, unknown>> {
  const compiled = (await requirePage(`${routePath}/route`, distDir, true)) as CompiledRoute;
  await compiled.routeModule.ensureUserland?.();
  return compiled.routeModule.userland;
}

/**
 * Routes outside /api/v2 the fast path serves too: the checkout's event stream, which holds its
 * response open for every event and heartbeat, each of which would otherwise cross Next.js's
 * response pipeline; with 10,000 open streams that pipeline was the server's bottleneck
 * (docs/BENCHMARKS.md, "The checkout's event stream").
 */
export const STREAM_ROUTES = ["/api/checkout/[token]/events"];

/** Every /api/v2 route of the build, and the STREAM_ROUTES, with their GET and POST handlers. */
export async function loadApiRoutes(distDir: string): Promise<ApiRoute[]> {
  const manifestFile = path.join(distDir, "server", "app-paths-manifest.json");
  const manifest = JSON.parse(fs.readFileSync(manifestFile, "utf8")) as Record<string, string>;
  const streams = STREAM_ROUTES.filter((routePath) => `${routePath}/route` in manifest);
  return Promise.all(
    [...apiRoutePaths(Object.keys(manifest)), ...streams].map(async (routePath) => {
      const userland = await loadCompiledRoute(distDir, routePath);
      const handlers: ApiRoute["handlers"] = {};
      for (const method of METHODS) {
        if (typeof userland[method] === "function") handlers[method] = userland[method] as RouteHandler;
      }
      return { path: routePath, handlers };
    }),
  );
}
