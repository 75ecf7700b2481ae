import "server-only";

import { createHmac, timingSafeEqual } from "node:crypto";

/** Hex HMAC-SHA512 of the exact body bytes, keyed with the merchant's secret (spec section 5). */
export function sign(body: Uint8Array | string, secret: string): string {
  return createHmac("sha512", secret).update(body).digest("hex");
}

/** Constant-time comparison over the bytes received; a malformed signature simply does not match. */
export function isValidSignature(body: Uint8Array, secret: string, signature: string): boolean {
  if (!/^[0-9a-fA-F]{128}$/.test(signature)) return false;
  const expected = createHmac("sha512", secret).update(body).digest();
  return timingSafeEqual(expected, Buffer.from(signature, "hex"));
}
