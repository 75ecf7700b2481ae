import "server-only";

import { eq, sql } from "drizzle-orm";
import type { SecretBox } from "@/lib/crypto/secret-box";
import { type Db, queryRowsPrepared } from "@/lib/db/client";
import { apiKeys } from "@/lib/db/schema";
import { apiSecretContext } from "./create-api-key";

export type ActiveKey = { id: number; merchantId: number; secret: string };

/**
 * Looks a key up on every request (no cache of the row), so a revocation applies to the very next
 * request.
 * A revoked key and an unknown key give the same answer.
 */
export async function findActiveKey(db: Db, box: SecretBox, key: string): Promise<ActiveKey | undefined> {
  // Raw: a named prepared statement on every signed request (docs/BENCHMARKS.md, the key lookup).
  const [row] = await queryRowsPrepared<{
    id: string | number;
    merchant_id: string | number;
    secret_sealed: string;
    is_revoked: boolean;
  }>(
    db,
    sql`select id, merchant_id, secret_sealed, revoked_at is not null as is_revoked
        from api_keys where key = ${key} limit 1`,
  );
  if (!row || row.is_revoked) return undefined;
  return {
    id: Number(row.id),
    merchantId: Number(row.merchant_id),
    secret: openSecret(box, key, row.secret_sealed),
  };
}

/**
 * Opened secrets by their sealed form. The row (and so revocation) is still read on every request;
 * only the AES-GCM opening of the same ciphertext is not repeated. Bounded: cleared when full.
 */
const opened = new Map<string, string>();
const OPENED_LIMIT = 10_000;

function openSecret(box: SecretBox, key: string, sealed: string): string {
  const cacheKey = `${key}\n${sealed}`;
  const cached = opened.get(cacheKey);
  if (cached !== undefined) return cached;
  const secret = box.open(sealed, apiSecretContext(key));
  if (opened.size >= OPENED_LIMIT) opened.clear();
  opened.set(cacheKey, secret);
  return secret;
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
