import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { API_ROUTES, matchApiRoute } from "@/lib/server/api-fast-path";

const apiDir = path.resolve(import.meta.dirname, "../../app/api/v2");

function routeFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return routeFiles(full);
    return entry.name === "route.ts" ? [full] : [];
  });
}

describe("the API fast path's route table", () => {
  it("lists every route under app/api/v2 (the catch-all 404 stays with Next.js)", () => {
    const onDisk = routeFiles(apiDir)
      .map((file) => `/api/v2/${path.relative(apiDir, path.dirname(file))}`)
      .filter((route) => !route.includes("[..."))
      .sort();
    expect(API_ROUTES.map((route) => route.path).sort()).toEqual(onDisk);
  });

  it("dispatches to the very handler functions the route modules export", async () => {
    for (const route of API_ROUTES) {
      const file = path.join(apiDir, route.path.replace("/api/v2/", ""), "route.ts");
      const module = await import(/* @vite-ignore */ file);
      for (const method of ["GET", "POST"] as const) {
        const concrete = route.path.replace("[foreign_id]", "order-1");
        expect(matchApiRoute(method, concrete)?.handler, `${method} ${route.path}`).toBe(module[method]);
      }
    }
  });

  it("decodes path parameters the way Next.js does", () => {
    const match = matchApiRoute("POST", "/api/v2/invoices/order%2042%20%C3%BC/cancel");
    expect(match?.params).toEqual({ foreign_id: "order 42 ü" });
  });

  it("leaves everything else to Next.js: other methods, trailing slashes, bad encodings, unknown paths", () => {
    expect(matchApiRoute("HEAD", "/api/v2/ping")).toBeUndefined();
    expect(matchApiRoute("OPTIONS", "/api/v2/ping")).toBeUndefined();
    expect(matchApiRoute("DELETE", "/api/v2/ping")).toBeUndefined();
    expect(matchApiRoute("POST", "/api/v2/ping")).toBeUndefined();
    expect(matchApiRoute("GET", "/api/v2/ping/")).toBeUndefined();
    expect(matchApiRoute("POST", "/api/v2/invoices/%E0%A4%A/cancel")).toBeUndefined();
    expect(matchApiRoute("POST", "/api/v2/invoices//cancel")).toBeUndefined();
    expect(matchApiRoute("POST", "/api/v2/invoices/a/b/cancel")).toBeUndefined();
    expect(matchApiRoute("POST", "/api/v2/nothing")).toBeUndefined();
  });
});
