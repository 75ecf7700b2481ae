import "server-only";

import { eq, sql } from "drizzle-orm";
import { type Clock, systemClock } from "@/lib/clock";
import type { SecretBox } from "@/lib/crypto/secret-box";
import { type Db, queryRowsPrepared } from "@/lib/db/client";
import { apiKeys } from "@/lib/db/schema";
import { apiSecretContext } from "./create-api-key";

export type ActiveKey = {
  id: number;
  merchantId: number;
  secret: string;
  /** CIDR ranges the key may be used from; null: any address. */
  allowedIps: string[] | null;
  /** Whether the key may call the endpoints that move money (Endpoint.movesMoney). */
  canMoveMoney: boolean;
};

/**
 * Looks a key up on every request (no cache of the row), so a revocation applies to the very next
 * request.
 * A revoked key, a rolled key past its overlap and an unknown key give the same answer.
 */
export async function findActiveKey(
  db: Db,
  box: SecretBox,
  key: string,
  clock: Clock = systemClock,
): Promise<ActiveKey | undefined> {
  // Raw: a named prepared statement on every signed request (docs/BENCHMARKS.md, the key lookup).
  const [row] = await queryRowsPrepared<{
    id: string | number;
    merchant_id: string | number;
    secret_sealed: string;
    is_revoked: boolean;
    allowed_ips: string[] | null;
    expires_at: string | Date | null;
    can_move_money: boolean;
  }>(
    db,
    sql`select id, merchant_id, secret_sealed, revoked_at is not null as is_revoked, allowed_ips, expires_at,
               can_move_money
        from api_keys where key = ${key} limit 1`,
  );
  if (!row || row.is_revoked) return undefined;
  // Compared here, not in SQL, so the statement stays one prepared text and a test's clock decides.
  if (row.expires_at !== null && new Date(row.expires_at).getTime() <= clock.now().getTime())
    return undefined;
  return {
    id: Number(row.id),
    merchantId: Number(row.merchant_id),
    secret: openSecret(box, key, row.secret_sealed),
    allowedIps: row.allowed_ips,
    canMoveMoney: row.can_move_money,
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
const lastTouched = new Map<number, { at: number; address: string }>();

/**
 * Records when and from where a key was last used, at most once a minute per key and process
 * (sooner when the address changes), so the hot path does not write a row on every request. The
 * write is not awaited: the request does not wait for it, and a failure is logged. Most calls
 * write nothing and return at once, without a promise (docs/BENCHMARKS.md, "What a request allocates").
 */
export function touchApiKey(db: Db, keyId: number, address: string): void {
  const now = Date.now();
  const last = lastTouched.get(keyId);
  if (last && last.address === address && now - last.at < TOUCH_INTERVAL_MS) return;
  lastTouched.set(keyId, { at: now, address });
  db.update(apiKeys)
    .set({ lastUsedAt: sql`now()`, lastUsedIp: address })
    .where(eq(apiKeys.id, keyId))
    .catch((error: unknown) => console.error("[api] could not record key use:", error));
}
