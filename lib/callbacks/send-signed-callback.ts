import "server-only";

import { and, desc, eq, isNull } from "drizzle-orm";
import { sign } from "@/lib/api/signature";
import { apiSecretContext } from "@/lib/api-keys/create-api-key";
import type { SecretBox } from "@/lib/crypto/secret-box";
import type { Executor } from "@/lib/db/client";
import { apiKeys } from "@/lib/db/schema";
import type { CallbackSettings } from "./deliver-callback";
import { type PostOutcome, postCallback } from "./post-callback";
import { checkCallbackUrl } from "./url-policy";

/** The merchant's newest active key signs callbacks, the same scheme merchants verify on requests. */
async function signingKey(db: Executor, merchantId: number, box: SecretBox) {
  const [key] = await db
    .select({ key: apiKeys.key, sealed: apiKeys.secretSealed })
    .from(apiKeys)
    .where(and(eq(apiKeys.merchantId, merchantId), isNull(apiKeys.revokedAt)))
    .orderBy(desc(apiKeys.id))
    .limit(1);
  return key ? { key: key.key, secret: box.open(key.sealed, apiSecretContext(key.key)) } : undefined;
}

const refused = (error: string): PostOutcome => ({ httpStatus: null, error, excerpt: null, latencyMs: 0 });

/**
 * Signs `body` with the merchant's newest active key (X-Processing-Key, X-Processing-Signature:
 * HMAC-SHA512 of these exact bytes with its secret) and posts it to `url`, after the URL policy of
 * the mode: the one way every callback, real or test, leaves Kassa. A missing URL or key is an
 * outcome with an error in the merchant's words, not an exception.
 */
export async function sendSignedCallback(
  db: Executor,
  input: {
    merchantId: number;
    url: string | null;
    body: string;
    headers: Record<string, string>;
    settings: Pick<CallbackSettings, "mode" | "timeoutMs" | "box">;
  },
): Promise<PostOutcome> {
  if (!input.url) return refused("no callback URL is set");
  const key = await signingKey(db, input.merchantId, input.settings.box);
  if (!key) return refused("no active API key to sign the callback with");
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
      "x-processing-key": key.key,
      "x-processing-signature": sign(input.body, key.secret),
    },
    input.settings,
  );
}
