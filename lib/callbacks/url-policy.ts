import "server-only";

import dns from "node:dns";
import type net from "node:net";
import ipaddr from "ipaddr.js";
import { fieldError } from "@/lib/errors";

/**
 * Where callbacks may go (DESIGN.md section 7): public unicast addresses only (ipaddr.js's ranges,
 * IPv4-in-IPv6 forms judged by their IPv4), plus loopback in sandbox mode; checked on save and on
 * each delivery. docs/decisions/callback-url-policy.md.
 */
export type CallbackMode = "sandbox" | "production";

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** The IPv4 address an IPv6 address carries in one of the forms that route to it, or null. */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | null {
  const parts = address.parts;
  const fromWords = (high: number, low: number) =>
    new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  const range = address.range();
  if (range === "ipv4Mapped" || range === "rfc6145") return fromWords(parts[6]!, parts[7]!);
  // RFC 6052's well-known NAT64 prefix 64:ff9b::/96: the last 32 bits.
  if (parts[0] === 0x64 && parts[1] === 0xff9b && parts.slice(2, 6).every((p) => p === 0))
    return fromWords(parts[6]!, parts[7]!);
  // 6to4 (2002:V4ADDR::/48): bits 16 to 47.
  if (range === "6to4") return fromWords(parts[1]!, parts[2]!);
  // IPv4-compatible (::a.b.c.d, deprecated): the first 96 bits zero, beyond :: and ::1.
  if (parts.slice(0, 6).every((p) => p === 0) && (parts[6]! !== 0 || parts[7]! > 1))
    return fromWords(parts[6]!, parts[7]!);
  return null;
}

function parse(text: string): Address | null {
  const host = text.replace(/^\[|\]$/g, "");
  if (!ipaddr.isValid(host)) return null;
  // Zone ids (fe80::1%eth0) only make sense on a local link.
  if (host.includes("%")) return null;
  return ipaddr.parse(host);
}

/** The range name that decides: the embedded IPv4 address's, when the IPv6 address carries one. */
function rangeOf(address: Address): string {
  if (address.kind() === "ipv6") {
    const embedded = embeddedIPv4(address as ipaddr.IPv6);
    if (embedded) return embedded.range();
  }
  return address.range();
}

/** Whether the address is an ordinary public unicast address (not any special-purpose range). */
export function isPublicAddress(ip: string): boolean {
  const address = parse(ip);
  return address !== null && rangeOf(address) === "unicast";
}

/** Whether a callback may connect to this address in this mode. */
export function isAllowedAddress(ip: string, mode: CallbackMode): boolean {
  const address = parse(ip);
  if (!address) return false;
  const range = rangeOf(address);
  return range === "unicast" || (mode === "sandbox" && range === "loopback");
}

/** Checks the URL's form: scheme by mode, no credentials, and for an address literal, that it is allowed. */
export function checkCallbackUrl(value: string, mode: CallbackMode): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw fieldError({ callback_url: "The callback URL must be an absolute URL." });
  }
  const schemes = mode === "production" ? ["https:"] : ["https:", "http:"];
  if (!schemes.includes(url.protocol)) {
    throw fieldError({
      callback_url:
        mode === "production"
          ? "The callback URL must use https."
          : "The callback URL must use http or https.",
    });
  }
  if (url.username || url.password)
    throw fieldError({ callback_url: "The callback URL must not contain a user name or password." });
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (ipaddr.isValid(host) && !isAllowedAddress(host, mode))
    throw fieldError({ callback_url: refusal(mode) });
  return url;
}

function refusal(mode: CallbackMode): string {
  return mode === "production"
    ? "The callback URL must point to a public address, not a private or local one."
    : "The callback URL must point to a public address or to loopback (127.0.0.1, ::1), not a private or link-local one.";
}

/** Resolves the host now and refuses it if any address it resolves to is not allowed in this mode. */
export async function assertResolvesPublic(url: URL, mode: CallbackMode): Promise<void> {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (ipaddr.isValid(host)) return; // checked by checkCallbackUrl
  let addresses: dns.LookupAddress[];
  try {
    addresses = await dns.promises.lookup(host, { all: true });
  } catch {
    throw fieldError({ callback_url: `The host ${host} of the callback URL cannot be resolved.` });
  }
  if (addresses.some((entry) => !isAllowedAddress(entry.address, mode))) {
    throw fieldError({
      callback_url:
        mode === "production"
          ? "The callback URL resolves to a private or local address."
          : "The callback URL resolves to a private or link-local address.",
    });
  }
}

/**
 * A `lookup` for http(s).request that keeps only allowed answers: the socket connects to one of
 * these, so the address checked is the address used (no second resolution to race against).
 */
export function guardedLookup(mode: CallbackMode): net.LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, "", 0);
      const list = addresses as unknown as dns.LookupAddress[];
      const allowed = list.filter((entry) => isAllowedAddress(entry.address, mode));
      if (allowed.length === 0) {
        return callback(
          Object.assign(new Error(`${hostname} resolves only to private or local addresses`), {
            code: "EPRIVATE",
          }),
          "",
          0,
        );
      }
      if ((options as { all?: boolean }).all)
        return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, allowed);
      callback(null, allowed[0]!.address, allowed[0]!.family);
    });
  };
}
