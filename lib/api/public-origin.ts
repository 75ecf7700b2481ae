import "server-only";

import { isTrustedPeer } from "@/lib/auth/client-address";
import { keepLast } from "@/lib/keep-last";

export type PublicOriginInput = {
  /** KASSA_PUBLIC_URL, when the operator set it. */
  publicUrl: string | undefined;
  host: string | null;
  forwardedHost: string | null;
  forwardedProto: string | null;
  /** The connection's peer address (lib/api/request-context.ts). */
  peer: string | undefined;
  trustedProxies: readonly string[];
};

const FALLBACK = "http://localhost";

/** The first value of a header a chain of proxies may have appended to. */
function firstValue(header: string | null): string | undefined {
  return header?.split(",")[0]?.trim() || undefined;
}

/** A URL's origin, kept for the last URL asked: every request to one deployment names the same host. */
const originOfUrl = keepLast((url) => (URL.canParse(url) ? new URL(url).origin : undefined));

/**
 * A Host value as an origin, or undefined for anything that is not a bare host[:port]: a value
 * with a path, user info or a query would otherwise let the header splice text into the link.
 */
function originOf(proto: "http" | "https", host: string | undefined): string | undefined {
  if (!host || !/^[A-Za-z0-9.\-[\]:]+$/.test(host)) return undefined;
  return originOfUrl(`${proto}://${host}`);
}

/** X-Forwarded-Host's first value when a trusted proxy (KASSA_TRUSTED_PROXIES) sent it, else undefined: anyone else could write it. */
export function trustedForwardedHost(
  input: Pick<PublicOriginInput, "forwardedHost" | "peer" | "trustedProxies">,
): string | undefined {
  const trusted = isTrustedPeer({ peer: input.peer, trustedProxies: input.trustedProxies });
  return trusted ? firstValue(input.forwardedHost) : undefined;
}

/**
 * The one rule for the origin of the public links Kassa builds (checkout URLs in API answers, the
 * dashboard, QR codes). KASSA_PUBLIC_URL wins whenever it is set, so no request header can move a
 * link to another site. Without it, the request's Host; X-Forwarded-Host and -Proto are believed
 * only from a peer listed in KASSA_TRUSTED_PROXIES, since anyone else could write them. (Host itself
 * is the client's choice: production sets KASSA_PUBLIC_URL, docs/OPERATIONS.md "Configuration".)
 */
export function publicOrigin(input: PublicOriginInput): string {
  // Verbatim but for a trailing slash: an operator may serve Kassa under a path prefix.
  if (input.publicUrl) return input.publicUrl.replace(/\/+$/, "");
  const trusted = isTrustedPeer({ peer: input.peer, trustedProxies: input.trustedProxies });
  const proto = trusted && firstValue(input.forwardedProto) === "https" ? "https" : "http";
  const forwarded = originOf(proto, trustedForwardedHost(input));
  return forwarded ?? originOf(proto, input.host ?? undefined) ?? FALLBACK;
}
