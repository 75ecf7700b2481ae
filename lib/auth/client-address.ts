import "server-only";

import ipaddr from "ipaddr.js";
import { keepLast } from "@/lib/keep-last";

/** No peer address to go by (a request that did not come through server.ts): no per-address limit applies. */
export const UNKNOWN_ADDRESS = "unknown";

export type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** An address or CIDR range, as KASSA_TRUSTED_PROXIES lists them; a lone address is its own /32 or /128. */
export function parseProxyRange(text: string): Range | null {
  const value = text.trim();
  if (ipaddr.isValidCIDR(value)) return ipaddr.parseCIDR(value);
  if (!ipaddr.isValid(value)) return null;
  const address = ipaddr.parse(value);
  return [address, address.kind() === "ipv4" ? 32 : 128];
}

/** IPv4-mapped IPv6 (`::ffff:10.0.0.1`, how Node reports IPv4 peers on a dual-stack socket) as IPv4. */
export function normalise(text: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  if (!ipaddr.isValid(text)) return null;
  return ipaddr.process(text);
}

/**
 * A peer address parsed (normalised; null if not an address) and as text (UNKNOWN_ADDRESS if not an
 * address), kept for the last peer asked: a keep-alive client, or the proxy in front, asks for the same
 * one request after request, and parsing it is most of the work.
 */
const parsedPeer = keepLast((peer) => {
  const address = normalise(peer);
  return { address, text: address?.toString() ?? UNKNOWN_ADDRESS };
});

/** Whether `address` is inside one of `ranges` (an IPv4 address is never inside an IPv6 range). */
export function isInRanges(address: ipaddr.IPv4 | ipaddr.IPv6, ranges: Range[]): boolean {
  return ranges.some(([range, bits]) => address.kind() === range.kind() && address.match(range, bits));
}

/**
 * The ranges of a KASSA_TRUSTED_PROXIES list, parsed once per list: every request asks, and the
 * configuration hands out the same list each time (lib/runtime.ts keeps it).
 */
const parsedLists = new WeakMap<readonly string[], Range[]>();
function proxyRanges(list: readonly string[]): Range[] {
  let ranges = parsedLists.get(list);
  if (!ranges) {
    ranges = list.map(parseProxyRange).filter((range) => range !== null);
    parsedLists.set(list, ranges);
  }
  return ranges;
}

/** Whether the connection's peer is one of KASSA_TRUSTED_PROXIES, whose forwarded headers may be believed. */
export function isTrustedPeer(input: {
  peer: string | undefined;
  trustedProxies: readonly string[];
}): boolean {
  const proxies = proxyRanges(input.trustedProxies);
  // No proxy trusted (the default): no peer is, and its address need not be parsed.
  if (proxies.length === 0 || !input.peer) return false;
  const peer = parsedPeer(input.peer).address;
  return peer !== null && isInRanges(peer, proxies);
}

/**
 * The address a request came from, for per-address limits. Forwarded headers are believed only
 * when the peer is one of the configured proxies: then X-Forwarded-For is read from the right,
 * skipping further trusted proxies, and the first address they did not add is the client. Without
 * trusted proxies (the default) the header is ignored, so a client cannot choose its own address,
 * neither to slip past a limit nor to spend someone else's.
 */
export function clientAddress(input: {
  peer: string | undefined;
  forwardedFor: string | null | undefined;
  trustedProxies: readonly string[];
}): string {
  if (!input.peer) return UNKNOWN_ADDRESS;
  const proxies = proxyRanges(input.trustedProxies);
  const peer = parsedPeer(input.peer);
  if (proxies.length === 0 || !input.forwardedFor) return peer.text;
  if (!peer.address || !isInRanges(peer.address, proxies)) return peer.text;
  const hops = input.forwardedFor.split(",").map((hop) => hop.trim());
  let client = peer.address;
  for (const hop of hops.reverse()) {
    const address = normalise(hop);
    // A hop a trusted proxy wrote that is not an address: stop at the last one we could read.
    if (!address) return client.toString();
    client = address;
    if (!isInRanges(address, proxies)) return address.toString();
  }
  return client.toString();
}
