import "server-only";

import ipaddr from "ipaddr.js";
import { requestPublicOrigin } from "@/lib/api/request-public-origin";
import { KassaError } from "@/lib/errors";
import { getConfig } from "@/lib/runtime";

/** Whether an origin names this machine: `localhost` (and its subdomains) or a loopback address. */
export function isLoopbackOrigin(origin: string): boolean {
  if (!URL.canParse(origin)) return false;
  const hostname = new URL(origin).hostname.toLowerCase().replace(/^\[|\]$/g, "");
  if (hostname === "localhost" || hostname.endsWith(".localhost")) return true;
  if (!ipaddr.isValid(hostname)) return false;
  const address = ipaddr.process(hostname);
  return address.range() === "loopback";
}

/**
 * Where links in sign-in e-mails (reset, sign-up, invitations) point. KASSA_PUBLIC_URL when set.
 * Without it the request's own origin comes from the Host header, which a client chooses: anyone
 * could have a victim's reset link point at their own host. Production refuses to send such links
 * until KASSA_PUBLIC_URL is set; a sandbox uses the request's origin only when it names this machine
 * (a local sandbox needs no setting), and refuses any other host with a 400 naming the setting.
 */
export function mailLinkBase(request: Request): string {
  const config = getConfig();
  if (config.publicUrl) return config.publicUrl.replace(/\/+$/, "");
  if (config.mode === "production")
    throw new KassaError(
      "service_unavailable",
      "E-mailed links are off until the operator sets KASSA_PUBLIC_URL.",
    );
  const origin = requestPublicOrigin(request.headers);
  if (isLoopbackOrigin(origin)) return origin;
  // The client's Host, not an outage: a 4xx that says what the operator sets.
  throw new KassaError(
    "bad_request",
    "E-mailed links name only this machine (localhost) in sandbox mode: to reach Kassa at another address, the operator sets KASSA_PUBLIC_URL.",
  );
}
