import "server-only";

import ipaddr from "ipaddr.js";
import { fieldError } from "@/lib/errors";
import { splitRanges } from "./split-ranges";

/** How many ranges one key may carry: enough for any office and CI setup, small enough to check per request. */
const MAX_RANGES = 50;

/**
 * A key's allowlist from what the merchant typed: addresses or CIDR ranges, IPv4 or IPv6, separated
 * by commas, spaces or lines. Stored in canonical form (a lone address as /32 or /128, the network
 * address of a range), so what the dashboard shows is what is enforced. An empty list is null: any address.
 */
export function parseAllowlist(entries: string[]): string[] | null {
  const texts = entries.flatMap(splitRanges);
  if (texts.length === 0) return null;
  if (texts.length > MAX_RANGES) throw fieldError({ allowed_ips: `At most ${MAX_RANGES} ranges per key.` });
  const ranges = new Set<string>();
  for (const text of texts) {
    let range: [ipaddr.IPv4 | ipaddr.IPv6, number];
    if (ipaddr.isValidCIDR(text)) range = ipaddr.parseCIDR(text);
    else if (ipaddr.isValid(text)) {
      const address = ipaddr.parse(text);
      range = [address, address.kind() === "ipv4" ? 32 : 128];
    } else throw fieldError({ allowed_ips: `"${text.slice(0, 60)}" is not an IP address or CIDR range.` });
    // IPv4-mapped IPv6 (::ffff:10.0.0.0/104) is stored as the IPv4 range it means.
    const [address, bits] = range;
    if (address.kind() === "ipv6" && (address as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96)
      range = [(address as ipaddr.IPv6).toIPv4Address(), bits - 96];
    const cidr = `${range[0].toString()}/${range[1]}`;
    const network =
      range[0].kind() === "ipv4"
        ? ipaddr.IPv4.networkAddressFromCIDR(cidr)
        : ipaddr.IPv6.networkAddressFromCIDR(cidr);
    ranges.add(`${network.toString()}/${range[1]}`);
  }
  return [...ranges];
}
