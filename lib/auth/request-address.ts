import "server-only";

import { currentRequestContext } from "@/lib/api/request-context";
import type { HeaderReader } from "@/lib/api/route-handler";
import { getConfig } from "@/lib/runtime";
import { clientAddress } from "./client-address";

/** A route's client address, for per-address limits and the audit trail: the peer, or a configured proxy's word (lib/auth/client-address.ts). */
export function requestAddress(request: Request): string {
  return addressFrom(request.headers, currentRequestContext()?.peerAddress);
}

/** requestAddress from the headers and the peer a caller already holds (the merchant API's wrapper). */
export function addressFrom(headers: HeaderReader, peer: string | undefined): string {
  return clientAddress({
    peer,
    forwardedFor: headers.get("x-forwarded-for"),
    trustedProxies: getConfig().trustedProxies,
  });
}
