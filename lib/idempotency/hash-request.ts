import "server-only";

import { createHash } from "node:crypto";

/**
 * What "the same request" means for an Idempotency-Key: the path (without a trailing slash, which
 * the routes ignore) and the exact body bytes, the ones the signature covers. Hex SHA-256.
 */
export function hashRequest(input: { path: string; body: Uint8Array }): string {
  const path = input.path.length > 1 ? input.path.replace(/\/+$/, "") : input.path;
  return createHash("sha256").update(`POST ${path}\n`).update(input.body).digest("hex");
}
