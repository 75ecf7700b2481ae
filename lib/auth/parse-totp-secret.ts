import "server-only";

import { fieldError } from "@/lib/errors";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/** RFC 4648 base32 without padding, whole 5-byte groups only; null for anything else. */
function decodeBase32(text: string): Uint8Array | null {
  if (text.length % 8 !== 0) return null;
  const bytes: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const char of text) {
    const value = ALPHABET.indexOf(char);
    if (value < 0) return null;
    buffer = ((buffer << 5) | value) & 0xfff;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((buffer >> bits) & 0xff);
    }
  }
  return Uint8Array.from(bytes);
}

/**
 * The TOTP secret a client sends back to turn on the second factor, checked before it is used:
 * base32, at least 160 bits (RFC 4226's recommendation, and what /totp/setup hands out), and not
 * degenerate. A secret of twenty zero bytes, or a short pattern repeated, would be a second factor
 * anyone can compute; a random one has at least eight different bytes with certainty in practice.
 * Returns the normalised text (upper case, no spaces or padding) for the authenticator library.
 */
export function parseTotpSecret(secret: string): string {
  const text = secret.replace(/[\s=]+/g, "").toUpperCase();
  const bytes = decodeBase32(text);
  const refuse = (message: string) => fieldError({ secret: message });
  if (!bytes)
    throw refuse("This is not a base32 secret from set-up. Start setting up two-factor sign-in again.");
  if (bytes.length < 20)
    throw refuse("This secret is too short: it needs at least 160 bits (32 characters).");
  if (new Set(bytes).size < 8)
    throw refuse("This secret is too predictable. Start setting up two-factor sign-in again.");
  return text;
}
