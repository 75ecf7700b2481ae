import "server-only";

import { sign } from "@/lib/api/signature";
import type { Executor } from "@/lib/db/client";
import type { CallbackSettings } from "./callback-settings";
import { type PostOutcome, postCallback } from "./post-callback";
import { resolveSigningKeys } from "./resolve-signing-keys";
import { checkCallbackUrl } from "./url-policy";

const refused = (error: string): PostOutcome => ({ httpStatus: null, error, excerpt: null, latencyMs: 0 });

/**
 * Signs `body` with the key chosen for the transaction (resolve-signing-keys.ts: X-Processing-Key,
 * X-Processing-Signature, the HMAC-SHA512 of these exact bytes with its secret; during a roll's
 * overlap also X-Processing-Next-Key and X-Processing-Next-Signature with the new key) and posts it
 * to `url`, after the URL policy of the mode: the one way every callback, real or test, leaves
 * Kassa. `transactionId` null: a test callback, signed by the designated callback key. A missing
 * URL or key is an outcome with an error in the merchant's words, not an exception: nothing is
 * ever signed by another key instead.
 */
export async function sendSignedCallback(
  db: Executor,
  input: {
    merchantId: number;
    transactionId: number | null;
    url: string | null;
    body: string;
    headers: Record<string, string>;
    settings: Pick<CallbackSettings, "mode" | "timeoutMs" | "box">;
  },
): Promise<PostOutcome> {
  if (!input.url) return refused("no callback URL is set");
  const keys = await resolveSigningKeys(db, input.settings.box, {
    merchantId: input.merchantId,
    transactionId: input.transactionId,
  });
  if ("refusal" in keys) return refused(keys.refusal);
  const { primary, next } = keys;
  let url: URL;
  try {
    url = checkCallbackUrl(input.url, input.settings.mode);
  } catch {
    return refused("refused: the URL is not allowed in this mode");
  }
  return postCallback(
    url,
    input.body,
    {
      "content-type": "application/json",
      "user-agent": "Kassa-Callbacks/1",
      ...input.headers,
      "x-processing-key": primary.key,
      "x-processing-signature": sign(input.body, primary.secret),
      ...(next && {
        "x-processing-next-key": next.key,
        "x-processing-next-signature": sign(input.body, next.secret),
      }),
    },
    input.settings,
  );
}
