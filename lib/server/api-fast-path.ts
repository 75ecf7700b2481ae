import "server-only";

import type { IncomingMessage, ServerResponse } from "node:http";
import * as accountsList from "@/app/api/v2/accounts/list/route";
import * as addressesTake from "@/app/api/v2/addresses/take/route";
import * as callbacksResend from "@/app/api/v2/callbacks/resend/route";
import * as withdrawalInstant from "@/app/api/v2/crypto/withdrawal_instant/route";
import * as currenciesList from "@/app/api/v2/currencies/list/route";
import * as exchangeCalculate from "@/app/api/v2/exchange/calculate/route";
import * as invoiceCancel from "@/app/api/v2/invoices/[foreign_id]/cancel/route";
import * as invoicesCreate from "@/app/api/v2/invoices/create/route";
import * as openapi from "@/app/api/v2/openapi.json/route";
import * as ping from "@/app/api/v2/ping/route";
import * as sandboxBlocks from "@/app/api/v2/sandbox/blocks/route";
import * as sandboxPayments from "@/app/api/v2/sandbox/payments/route";
import * as transactionsInfo from "@/app/api/v2/transactions/info/route";
import * as withdrawalCrypto from "@/app/api/v2/withdrawal/crypto/route";

/**
 * The merchant API's fast path (docs/BENCHMARKS.md has the profile that called for it). Next.js's
 * request pipeline costs about 1 ms of CPU per request before a route handler runs, more than the
 * handler and its queries together. For the routes below, the custom server calls the very same
 * route handler functions Next.js would (a Web `Request` in, a `Response` out), without the
 * pipeline around them. Anything else (unknown paths, a trailing slash, HEAD, OPTIONS, an
 * unsupported method, a path that does not decode) falls through to Next.js unchanged, which
 * answers it as before.
 */
type Handler = (
  request: Request,
  context: { params: Promise<Record<string, string>> },
) => Promise<Response> | Response;
type RouteModule = Partial<Record<"GET" | "POST", Handler>>;

/** Path segments; a segment in brackets is a parameter. Kept in step with app/api/v2 by a test. */
export const API_ROUTES: ReadonlyArray<{ path: string; module: RouteModule }> = [
  { path: "/api/v2/ping", module: ping },
  { path: "/api/v2/openapi.json", module: openapi },
  { path: "/api/v2/currencies/list", module: currenciesList },
  { path: "/api/v2/accounts/list", module: accountsList },
  { path: "/api/v2/invoices/create", module: invoicesCreate },
  { path: "/api/v2/invoices/[foreign_id]/cancel", module: invoiceCancel },
  { path: "/api/v2/addresses/take", module: addressesTake },
  { path: "/api/v2/withdrawal/crypto", module: withdrawalCrypto },
  { path: "/api/v2/crypto/withdrawal_instant", module: withdrawalInstant },
  { path: "/api/v2/exchange/calculate", module: exchangeCalculate },
  { path: "/api/v2/transactions/info", module: transactionsInfo },
  { path: "/api/v2/callbacks/resend", module: callbacksResend },
  { path: "/api/v2/sandbox/payments", module: sandboxPayments },
  { path: "/api/v2/sandbox/blocks", module: sandboxBlocks },
];

const exact = new Map(API_ROUTES.filter((r) => !r.path.includes("[")).map((r) => [r.path, r.module]));
const patterns = API_ROUTES.filter((r) => r.path.includes("[")).map((r) => ({
  segments: r.path.split("/"),
  module: r.module,
}));

export type ApiMatch = { handler: Handler; params: Record<string, string> };

/** The route handler for a method and path, or undefined when Next.js should answer. */
export function matchApiRoute(method: string, pathname: string): ApiMatch | undefined {
  if (method !== "GET" && method !== "POST") return undefined;
  const module = exact.get(pathname);
  if (module) {
    const handler = module[method];
    return handler ? { handler, params: {} } : undefined;
  }
  const segments = pathname.split("/");
  for (const pattern of patterns) {
    if (pattern.segments.length !== segments.length) continue;
    const params: Record<string, string> = {};
    const isMatch = pattern.segments.every((part, i) => {
      const actual = segments[i]!;
      if (!part.startsWith("[")) return part === actual;
      if (actual === "") return false;
      try {
        params[part.slice(1, -1)] = decodeURIComponent(actual);
        return true;
      } catch {
        return false;
      }
    });
    const handler = pattern.module[method];
    if (isMatch && handler) return { handler, params };
  }
  return undefined;
}

/** Headers every answer carries, the same ones next.config.mjs adds to Next's answers. */
const COMMON_HEADERS = { "x-content-type-options": "nosniff", "x-frame-options": "DENY" };

function toHeaders(req: IncomingMessage): Headers {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    try {
      headers.append(raw[i]!, raw[i + 1]!);
    } catch {
      // A header value Node accepted but the Fetch spec refuses: the handlers never need it.
    }
  }
  return headers;
}

function requestOrigin(req: IncomingMessage): string {
  const proto =
    String(req.headers["x-forwarded-proto"] ?? "")
      .split(",")[0]
      ?.trim() === "https"
      ? "https"
      : "http";
  const host = req.headers.host ?? "localhost";
  try {
    return new URL(`${proto}://${host}`).origin;
  } catch {
    return "http://localhost";
  }
}

/** Calls the route handler with a Web Request built from the Node request and writes its Response. */
export async function serveApiRoute(
  match: ApiMatch,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const request = new Request(`${requestOrigin(req)}${req.url ?? "/"}`, {
    method: req.method,
    headers: toHeaders(req),
  });
  const response = await match.handler(request, { params: Promise.resolve(match.params) });
  const body = response.body ? Buffer.from(await response.arrayBuffer()) : undefined;
  res.statusCode = response.status;
  for (const [name, value] of Object.entries(COMMON_HEADERS)) res.setHeader(name, value);
  response.headers.forEach((value, name) => {
    res.setHeader(name, value);
  });
  if (body) res.setHeader("content-length", body.length);
  res.end(body);
}
