import "server-only";

import { currentRequestContext } from "@/lib/api/request-context";
import { clientAddress } from "@/lib/auth/client-address";
import { getConfig } from "@/lib/runtime";

/** The client address of the request being served, by the KASSA_TRUSTED_PROXIES rules. */
export function requestAddress(request: Request): string {
  return clientAddress({
    peer: currentRequestContext()?.peerAddress,
    forwardedFor: request.headers.get("x-forwarded-for"),
    trustedProxies: getConfig().trustedProxies,
  });
}
