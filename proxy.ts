import { type NextRequest, NextResponse } from "next/server";

/**
 * The Content-Security-Policy of every page (Next 16's Proxy, the renamed middleware; the recipe of
 * Next's "Content Security Policy" guide). Each request gets a fresh nonce: Next reads it from the
 * `Content-Security-Policy` request header while rendering and puts it on its own inline scripts
 * and the page's script tags, so `script-src` needs neither `'unsafe-inline'` nor `'unsafe-eval'`,
 * and `'strict-dynamic'` lets those scripts load the chunks they import. Pages must therefore be
 * rendered per request (app/layout.tsx awaits `connection()`): a page prerendered at build time
 * would carry no nonce and its scripts would be refused.
 *
 * Route handlers (`/api/*`, `/metrics`) answer JSON, SVG or text: they get `default-src 'none'`
 * from server/response-headers.json instead, on both of their paths (Next.js and the /api/v2 fast path).
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

export function proxy(request: NextRequest): NextResponse {
  const policy = contentSecurityPolicy(newNonce(), process.env.NODE_ENV === "development");
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("content-security-policy", policy);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("content-security-policy", policy);
  return response;
}

export const config = {
  matcher: [
    {
      // Pages only: not route handlers (their own policy), Next's static files, or the engine's door.
      source: "/((?!api/|_next/static|_next/image|internal/|metrics|favicon.ico|icon).*)",
      // A prefetch's answer is not a document: its policy would never be applied.
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
  ],
};
