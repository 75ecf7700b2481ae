import { eq, sql } from "drizzle-orm";
import type { SecretBox } from "@/lib/crypto/secret-box";
import type { Db } from "@/lib/db/client";
import { apiKeys } from "@/lib/db/schema";
import { apiSecretContext } from "./create-api-key";

export type ActiveKey = { id: number; merchantId: number; secret: string };

/**
 * Looks a key up on every request (no cache), so a revocation applies to the very next request.
 * A revoked key and an unknown key give the same answer.
 */
export async function findActiveKey(db: Db, box: SecretBox, key: string): Promise<ActiveKey | undefined> {
  const [row] = await db
    .select({
      id: apiKeys.id,
      merchantId: apiKeys.merchantId,
      secretSealed: apiKeys.secretSealed,
      revokedAt: apiKeys.revokedAt,
    })
    .from(apiKeys)
    .where(eq(apiKeys.key, key))
    .limit(1);
  if (!row || row.revokedAt) return undefined;
  return {
    id: row.id,
    merchantId: row.merchantId,
    secret: box.open(row.secretSealed, apiSecretContext(key)),
  };
}

const TOUCH_INTERVAL_MS = 60_000;
const lastTouched = new Map<number, number>();

/**
 * Records when a key was last used, at most once a minute per key and process, so the hot path
 * does not write a row on every request.
 */
export async function touchApiKey(db: Db, keyId: number): Promise<void> {
  const now = Date.now();
  if (now - (lastTouched.get(keyId) ?? 0) < TOUCH_INTERVAL_MS) return;
  lastTouched.set(keyId, now);
  await db.update(apiKeys).set({ lastUsedAt: sql`now()` }).where(eq(apiKeys.id, keyId));
}
