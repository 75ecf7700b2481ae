import { type NextRequest, NextResponse } from "next/server";

/**
 * The Content-Security-Policy of every page, with a fresh nonce per request (Next 16's Proxy), so
 * pages render per request; route handlers get theirs from server/response-headers.json.
 * docs/decisions/content-security-policy.md.
 */
export function contentSecurityPolicy(nonce: string, isDev: boolean): string {
  return [
    "default-src 'self'",
    // React's development build evaluates code to rebuild server stacks; the production build never does.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${isDev ? " 'unsafe-eval'" : ""}`,
    // Tailwind is one stylesheet from /_next/static; Next puts the nonce on any style it inlines.
    // Development injects styles without it (the error overlay, hot reload), so there only
    // 'unsafe-inline' (which a nonce in the same list would switch off).
    `style-src 'self' ${isDev ? "'unsafe-inline'" : `'nonce-${nonce}'`}`,
    // QR codes: the checkout's come from /api/checkout/…/qr.svg, the authenticator's is a data: URI.
    "img-src 'self' data:",
    "font-src 'self'",
    // The checkout's EventSource and the dashboard's fetches go to this origin only.
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** A fresh, unguessable nonce: 128 random bits, base64 as CSP's nonce-source expects. */
function newNonce(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
}

/**
 * Server components cannot see the URL they render for; requireSession needs it to send a signed-out
 * merchant to the sign-in page and back to the page they asked for. Set here (overwriting anything a
 * client sent), and checked again by safeReturnPath before anyone is redirected to it. The same name
 * as REQUEST_PATH_HEADER in lib/auth/return-path.ts, which carries `server-only` and so cannot be
 * imported into the proxy bundle.
 */
const REQUEST_PATH_HEADER = "x-kassa-request-path";

/** A prefetch's answer is not a document: a policy on it would never be applied. */
function isPrefetch(request: NextRequest): boolean {
  return request.headers.has("next-router-prefetch") || request.headers.get("purpose") === "prefetch";
}

export function proxy(request: NextRequest): NextResponse {
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set(REQUEST_PATH_HEADER, `${request.nextUrl.pathname}${request.nextUrl.search}`);
  if (isPrefetch(request)) return NextResponse.next({ request: { headers: requestHeaders } });
  const policy = contentSecurityPolicy(newNonce(), process.env.NODE_ENV === "development");
  requestHeaders.set("content-security-policy", policy);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("content-security-policy", policy);
  return response;
}

export const config = {
  // Pages only: not route handlers (their own policy), Next's static files, or the engine's door.
  matcher: ["/((?!api/|_next/static|_next/image|internal/|metrics|favicon.ico|icon).*)"],
};
