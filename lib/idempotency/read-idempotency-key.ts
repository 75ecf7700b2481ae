import "server-only";

import { KassaError } from "@/lib/errors";

/** Stripe's limit, which clients written for it already respect. */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

/**
 * The request's `Idempotency-Key`, or undefined when it was not sent. A key that is sent but
 * unusable (empty, too long, control characters) is refused rather than ignored: ignoring it would
 * turn the client's safe retry into a second operation.
 */
export function readIdempotencyKey(headers: Pick<Headers, "get">): string | undefined {
  const key = headers.get("idempotency-key");
  if (key === null) return undefined;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (key.length === 0 || key.length > IDEMPOTENCY_KEY_MAX_LENGTH || /[\u0000-\u001f\u007f]/.test(key)) {
    throw new KassaError(
      "idempotency_key_invalid",
      `The Idempotency-Key header must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} characters without control characters.`,
    );
  }
  return key;
}
