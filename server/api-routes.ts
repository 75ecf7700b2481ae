import type { Reply } from "@/lib/api/respond";
import type { DirectCall } from "@/lib/api/route-handler";

/**
 * The /api/v2 routes the fast path serves, and how a method and path find one. The table is not
 * written by hand: it is read from Next.js's build (the app-paths manifest, one entry per route file
 * under app/api/v2), and tests/unit/api-fast-path.test.ts checks those files against the endpoint
 * definitions (lib/openapi/endpoints.ts) both ways, so definitions, files and dispatcher cannot drift.
 */
export type RouteHandler = ((
  request: Request,
  context: { params: Promise<Record<string, string>> },
) => Promise<Response> | Response) & {
  /** A route's own, larger body cap (a batch endpoint); the configured cap otherwise. */
  bodyLimitBytes?: number;
  /** The same route without Web Request and Response objects (the merchant API's, lib/api/with-merchant-signature.ts). */
  direct?: (call: DirectCall) => Promise<Reply>;
};

export type { DirectCall, Reply };

export type ApiRoute = {
  /** `/api/v2/invoices/[foreign_id]/cancel`: a segment in brackets is a parameter. */
  path: string;
  handlers: Partial<Record<"GET" | "POST", RouteHandler>>;
};

export type ApiMatch = { handler: RouteHandler; params: Record<string, string> };

export type ApiRouter = (method: string, pathname: string) => ApiMatch | undefined;

const PREFIX = "/api/v2/";

/**
 * The API route paths among a build's app paths (`/api/v2/ping/route` → `/api/v2/ping`). The
 * catch-all (`[...path]`, the JSON 404) stays with Next.js.
 */
export function apiRoutePaths(appPaths: Iterable<string>): string[] {
  return [...appPaths]
    .filter((appPath) => appPath.startsWith(PREFIX) && appPath.endsWith("/route"))
    .map((appPath) => appPath.slice(0, -"/route".length))
    .filter((routePath) => !routePath.includes("[..."))
    .sort();
}

function matchSegments(pattern: string[], segments: string[]): Record<string, string> | undefined {
  if (pattern.length !== segments.length) return undefined;
  const params: Record<string, string> = {};
  for (const [i, part] of pattern.entries()) {
    const actual = segments[i]!;
    if (!part.startsWith("[")) {
      if (part !== actual) return undefined;
      continue;
    }
    if (actual === "") return undefined;
    try {
      params[part.slice(1, -1)] = decodeURIComponent(actual);
    } catch {
      return undefined;
    }
  }
  return params;
}

/**
 * A router over the table: the handler for a method and path, or undefined when Next.js should
 * answer (HEAD, OPTIONS, other methods, trailing slashes, unknown paths, undecodable parameters),
 * which it does as it always has.
 */
export function createApiRouter(routes: readonly ApiRoute[]): ApiRouter {
  const exact = new Map(routes.filter((r) => !r.path.includes("[")).map((r) => [r.path, r.handlers]));
  const patterns = routes
    .filter((r) => r.path.includes("["))
    .map((r) => ({ segments: r.path.split("/"), handlers: r.handlers }));
  return (method, pathname) => {
    if (method !== "GET" && method !== "POST") return undefined;
    const handlers = exact.get(pathname);
    if (handlers) {
      const handler = handlers[method];
      return handler ? { handler, params: {} } : undefined;
    }
    const segments = pathname.split("/");
    for (const pattern of patterns) {
      const handler = pattern.handlers[method];
      const params = handler ? matchSegments(pattern.segments, segments) : undefined;
      if (handler && params) return { handler, params };
    }
    return undefined;
  };
}
