import { type NextRequest, NextResponse } from "next/server";

/**
 * Server components cannot see the URL they render for; requireSession needs it to send a signed-out
 * merchant to the sign-in page and back to the page they asked for. Set here (overwriting anything a
 * client sent), and checked again by safeReturnPath before anyone is redirected to it.
 */
// The same name as REQUEST_PATH_HEADER in lib/auth/return-path.ts, which carries `server-only` and so
// cannot be imported into the proxy bundle.
const REQUEST_PATH_HEADER = "x-kassa-request-path";

export function proxy(request: NextRequest) {
  const headers = new Headers(request.headers);
  headers.set(REQUEST_PATH_HEADER, `${request.nextUrl.pathname}${request.nextUrl.search}`);
  return NextResponse.next({ request: { headers } });
}

export const config = { matcher: ["/dashboard", "/dashboard/:path*", "/onboarding"] };
