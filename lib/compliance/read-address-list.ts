import "server-only";

import { readFile, stat } from "node:fs/promises";

type Cached = { mtimeMs: number; size: number; addresses: ReadonlySet<string> };

const cache = new Map<string, Cached>();

/**
 * One form per address, so a list and a payment match whatever case either was written in: EVM
 * addresses (0x + 40 hex digits) are case-insensitive; other chains' (base58, bech32, cashaddr) are
 * compared as written, except bech32/cashaddr which are lower case by definition.
 */
export function normalizeAddress(address: string): string {
  const trimmed = address.trim();
  if (/^0x[0-9a-f]{40}$/i.test(trimmed)) return trimmed.toLowerCase();
  if (/^(bc1|tb1|ltc1|tltc1|bitcoincash:|bchtest:)/i.test(trimmed)) return trimmed.toLowerCase();
  return trimmed;
}

/** The list file's text as addresses: one per line, `#` starts a comment, blank lines ignored. */
export function parseAddressList(text: string): ReadonlySet<string> {
  const addresses = new Set<string>();
  for (const line of text.split(/\r?\n/)) {
    const entry = line.replace(/#.*/, "").trim();
    if (entry) addresses.add(normalizeAddress(entry));
  }
  return addresses;
}

/**
 * An operator's address list (denylist/sanctions or allowlist), read at the first use and read again
 * whenever the file's modification time or size changed, so an updated list applies to the next
 * payment without a restart. A list that cannot be read fails the screening (the payment's crediting
 * is retried) rather than letting a payment through unscreened.
 */
export async function readAddressList(path: string): Promise<ReadonlySet<string>> {
  const info = await stat(path);
  const cached = cache.get(path);
  if (cached && cached.mtimeMs === info.mtimeMs && cached.size === info.size) return cached.addresses;
  const addresses = parseAddressList(await readFile(path, "utf8"));
  cache.set(path, { mtimeMs: info.mtimeMs, size: info.size, addresses });
  return addresses;
}
