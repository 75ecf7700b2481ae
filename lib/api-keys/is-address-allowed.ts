import "server-only";

import ipaddr from "ipaddr.js";
import { isInRanges, normalise, type Range } from "@/lib/auth/client-address";
import { keepLast } from "@/lib/keep-last";

/** Parsed allowlists by their text: the key's row, and so its list, is read afresh on every request. */
const parsedLists = new Map<string, Range[]>();
const PARSED_LISTS_LIMIT = 1_000;

function rangesOf(allowedIps: string[]): Range[] {
  const text = allowedIps.join("\n");
  let ranges = parsedLists.get(text);
  if (!ranges) {
    ranges = allowedIps.filter((entry) => ipaddr.isValidCIDR(entry)).map((entry) => ipaddr.parseCIDR(entry));
    if (parsedLists.size >= PARSED_LISTS_LIMIT) parsedLists.clear();
    parsedLists.set(text, ranges);
  }
  return ranges;
}

/** The client address judged last, parsed: a client's requests come one after another from one address. */
const parsedClient = keepLast(normalise);

/**
 * Whether a client address may use a key. No allowlist: any address. With one, an address that is
 * not known (a request that did not come through the server) or matches no range is refused.
 */
export function isAddressAllowed(allowedIps: string[] | null, address: string): boolean {
  if (!allowedIps || allowedIps.length === 0) return true;
  const client = parsedClient(address);
  return client !== null && isInRanges(client, rangesOf(allowedIps));
}
