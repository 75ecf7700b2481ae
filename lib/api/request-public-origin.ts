import "server-only";

import { currentRequestContext } from "@/lib/api/request-context";
import { getConfig } from "@/lib/runtime";
import { publicOrigin, trustedForwardedHost } from "./public-origin";
import type { HeaderReader } from "./route-handler";

/** The host the browser asked for (same-origin checks): a trusted proxy's X-Forwarded-Host, else Host. */
export function requestHost(headers: Headers): string | null {
  const forwarded = trustedForwardedHost({
    forwardedHost: headers.get("x-forwarded-host"),
    peer: currentRequestContext()?.peerAddress,
    trustedProxies: getConfig().trustedProxies,
  });
  return forwarded ?? headers.get("host");
}

/** The origin of public links for a request's headers (route handlers pass `request.headers`, pages `await headers()`). */
export function requestPublicOrigin(
  headers: HeaderReader,
  peer: string | undefined = currentRequestContext()?.peerAddress,
): string {
  const config = getConfig();
  return publicOrigin({
    publicUrl: config.publicUrl,
    host: headers.get("host"),
    forwardedHost: headers.get("x-forwarded-host"),
    forwardedProto: headers.get("x-forwarded-proto"),
    peer,
    trustedProxies: config.trustedProxies,
  });
}
