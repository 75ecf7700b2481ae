import "server-only";

import dns from "node:dns";
import net from "node:net";
import { fieldError } from "@/lib/errors";

/**
 * Where callbacks may go (DESIGN.md section 7). In production: https only, and never to a private,
 * loopback, link-local or otherwise non-public address, checked when the URL is set and again at
 * every connection (the DNS answer of the moment, so a name that later points inside is still
 * refused). Sandbox mode allows http and loopback, so local development works.
 */
const BLOCKED = new net.BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  BLOCKED.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
  ["64:ff9b::", 96],
  ["2001:db8::", 32],
] as const) {
  BLOCKED.addSubnet(network, prefix, "ipv6");
}

export function isPublicAddress(ip: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return isPublicAddress(mapped[1]!);
  const family = net.isIP(ip);
  if (family === 0) return false;
  return !BLOCKED.check(ip, family === 4 ? "ipv4" : "ipv6");
}

export type CallbackMode = "sandbox" | "production";

/** Checks the URL's form: scheme by mode, no credentials, and for an address literal, that it is public. */
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
  if (mode === "production" && net.isIP(host) && !isPublicAddress(host)) {
    throw fieldError({
      callback_url: "The callback URL must point to a public address, not a private or local one.",
    });
  }
  return url;
}

/** Resolves the host now and refuses it if any address it resolves to is not public (production). */
export async function assertResolvesPublic(url: URL, mode: CallbackMode): Promise<void> {
  if (mode !== "production") return;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (net.isIP(host)) return; // checked by checkCallbackUrl
  let addresses: dns.LookupAddress[];
  try {
    addresses = await dns.promises.lookup(host, { all: true });
  } catch {
    throw fieldError({ callback_url: `The host ${host} of the callback URL cannot be resolved.` });
  }
  if (addresses.some((entry) => !isPublicAddress(entry.address))) {
    throw fieldError({ callback_url: "The callback URL resolves to a private or local address." });
  }
}

/** A `lookup` for http(s).request that refuses non-public answers at connection time (production). */
export function guardedLookup(mode: CallbackMode): net.LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, "", 0);
      const list = addresses as unknown as dns.LookupAddress[];
      const allowed = mode === "production" ? list.filter((entry) => isPublicAddress(entry.address)) : list;
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
