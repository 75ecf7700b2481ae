import "server-only";

import type { Db } from "@/lib/db/client";
import { fieldError } from "@/lib/errors";
import type { CallbackSettings } from "./callback-settings";
import { readCallbackUrl } from "./read-callback-url";
import { sendSignedCallback } from "./send-signed-callback";

/** The documented body of a test callback (docs/api-decisions.md, "Callbacks"): no transaction, only the signature to check. */
export function testCallbackBody(sentAt: Date): string {
  return JSON.stringify({
    type: "test",
    status: "test",
    message:
      "A test callback from Kassa. Check X-Processing-Signature (HMAC-SHA512 of this body with the secret of the key in X-Processing-Key) and answer any 2xx.",
    sent_at: sentAt.toISOString(),
  });
}

/**
 * Sends a signed test callback to the merchant's callback URL now, through the same signing, URL
 * policy and HTTP path as real callbacks, and answers what happened at once. It is not stored: it
 * reports no transaction, so it has no place in the delivery log or the events a merchant reads.
 */
export async function sendTestCallback(
  db: Db,
  input: { merchantId: number; settings: Pick<CallbackSettings, "mode" | "timeoutMs" | "box"> },
) {
  const url = await readCallbackUrl(db, input.merchantId);
  if (!url)
    throw fieldError({ callback_url: "Save a callback URL first: the test callback goes to the saved URL." });
  const body = testCallbackBody(new Date());
  const outcome = await sendSignedCallback(db, {
    merchantId: input.merchantId,
    // No transaction: the designated callback key signs it, as it signs the dashboard's.
    transactionId: null,
    url,
    body,
    headers: { "x-kassa-event": "test" },
    settings: input.settings,
  });
  return {
    url,
    delivered: outcome.error === null,
    http_status: outcome.httpStatus,
    error: outcome.error,
    response_excerpt: outcome.excerpt,
    latency_ms: outcome.latencyMs,
    body,
  };
}
