import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { encode } from "next-auth/jwt";
import type { SessionRouteHandler } from "@/lib/api/with-session";
import type { Db } from "@/lib/db/client";
import { users } from "@/lib/db/schema";

const DASHBOARD_API = path.resolve(import.meta.dirname, "../../app/api/dashboard");
const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"] as const;

/** One exported method of one route file: `key` as "POST withdrawals/[id]/approve". */
export type DashboardRoute = { key: string; name: string; method: string; handler: SessionRouteHandler };

/** Every route file under app/api/dashboard, as its path below it ("withdrawals/[id]/approve"). */
function routeFiles(dir = DASHBOARD_API): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return routeFiles(full);
    return entry.name === "route.ts" ? [path.relative(DASHBOARD_API, dir)] : [];
  });
}

/** Every exported method of every dashboard route file, imported as Next would serve it. */
export async function loadDashboardRoutes(): Promise<DashboardRoute[]> {
  const routes: DashboardRoute[] = [];
  for (const name of routeFiles()) {
    const module = (await import(path.join(DASHBOARD_API, name, "route.ts"))) as Record<string, unknown>;
    for (const method of METHODS)
      if (module[method])
        routes.push({
          key: `${method} ${name}`,
          name,
          method,
          handler: module[method] as SessionRouteHandler,
        });
  }
  return routes;
}

/**
 * A new sign-in of the user: a session cookie as next-auth issues it, with a session id of its own
 * (two calls are two browsers). NEXTAUTH_SECRET is set by the test file.
 */
export async function signInCookie(db: Db, userId: number): Promise<string> {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  const token = {
    sub: String(user!.id),
    email: user!.email,
    merchantId: user!.merchantId,
    sessionVersion: user!.sessionVersion,
    sessionId: randomBytes(18).toString("base64url"),
  };
  return `next-auth.session-token=${await encode({ token, secret: process.env.NEXTAUTH_SECRET! })}`;
}

export type RouteAnswer = { status: number; body: Record<string, unknown>; setCookie: string | null };

/** One request to a dashboard route handler from the dashboard's own origin, as the browser sends it. */
export async function callRoute(
  handler: SessionRouteHandler,
  input: { path: string; cookie: string; method?: string; body?: unknown; id?: string | number },
): Promise<RouteAnswer> {
  const method = input.method ?? "POST";
  const response = await handler(
    new Request(`http://kassa.test/api/dashboard/${input.path}`, {
      method,
      headers: {
        host: "kassa.test",
        origin: "http://kassa.test",
        cookie: input.cookie,
        "content-type": "application/json",
      },
      body: method === "GET" ? undefined : JSON.stringify(input.body ?? {}),
    }),
    {
      params: Promise.resolve(
        input.id === undefined ? {} : ({ id: String(input.id) } as Record<string, string>),
      ),
    },
  );
  const text = await response.text();
  const setCookie = response.headers.get("set-cookie");
  return {
    status: response.status,
    body: text.startsWith("{") ? JSON.parse(text) : {},
    setCookie: setCookie && setCookie.split(";")[0]!,
  };
}
