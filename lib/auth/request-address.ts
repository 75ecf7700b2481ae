import "server-only";

import { currentRequestContext } from "@/lib/api/request-context";
import { getConfig } from "@/lib/runtime";
import { clientAddress } from "./client-address";

/** A route's client address, for per-address limits and the audit trail: the peer, or a configured proxy's word (lib/auth/client-address.ts). */
export function requestAddress(request: Request): string {
  return clientAddress({
    peer: currentRequestContext()?.peerAddress,
    forwardedFor: request.headers.get("x-forwarded-for"),
    trustedProxies: getConfig().trustedProxies,
  });
}
