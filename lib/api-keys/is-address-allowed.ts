import "server-only";

import ipaddr from "ipaddr.js";

/**
 * Whether a client address may use a key. No allowlist: any address. With one, an address that is
 * not known (a request that did not come through the server) or matches no range is refused.
 */
export function isAddressAllowed(allowedIps: string[] | null, address: string): boolean {
  if (!allowedIps || allowedIps.length === 0) return true;
  if (!ipaddr.isValid(address)) return false;
  const client = ipaddr.process(address);
  return allowedIps.some((text) => {
    if (!ipaddr.isValidCIDR(text)) return false;
    const [range, bits] = ipaddr.parseCIDR(text);
    return client.kind() === range.kind() && client.match(range, bits);
  });
}
