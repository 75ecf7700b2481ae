import "server-only";

import { sign } from "@/lib/api/signature";
import type { Executor } from "@/lib/db/client";
import type { CallbackSettings } from "./callback-settings";
import { type PostOutcome, postCallback } from "./post-callback";
import { resolveSigningKeys } from "./resolve-signing-keys";
import { checkCallbackUrl } from "./url-policy";

const refused = (error: string): PostOutcome => ({ httpStatus: null, error, excerpt: null, latencyMs: 0 });

/**
 * The one way every callback leaves Kassa: signs `body` with the key resolve-signing-keys.ts picks (a test,
 * `transactionId` null: the callback key) as X-Processing-Key/-Signature (HMAC-SHA512 of these bytes), plus
 * -Next-Key/-Next-Signature in a roll's overlap, and posts it to `url` under the mode's URL policy. No URL
 * or key: an error outcome, never an exception nor another key: docs/decisions/callback-signing-key.md.
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
