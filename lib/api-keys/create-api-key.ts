import "server-only";

import { randomBytes } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import type { SecretBox } from "@/lib/crypto/secret-box";
import type { Executor } from "@/lib/db/client";
import { apiKeys, merchants } from "@/lib/db/schema";

export type CreatedApiKey = {
  id: number;
  key: string;
  secret: string;
  label: string;
  createdAt: Date;
  canMoveMoney: boolean;
};

/** The associated data that binds a sealed secret to its key (see SecretBox). */
export const apiSecretContext = (key: string) => `api_key:${key}`;

/**
 * Creates a key pair for a merchant. The secret is returned here once and stored only sealed
 * under the master key; nothing can show it again, so a lost secret means a new key.
 * `canMoveMoney` is the caller's decision (a member's role allows it, or the operator's); absent,
 * the key cannot move money. `createdBy` names the member, null for the operator.
 */
export async function createApiKey(
  db: Executor,
  box: SecretBox,
  input: { merchantId: number; label?: string; canMoveMoney?: boolean; createdBy?: number | null },
): Promise<CreatedApiKey> {
  const key = `pk_${randomBytes(18).toString("base64url")}`;
  const secret = `sk_${randomBytes(32).toString("base64url")}`;
  const [row] = await db
    .insert(apiKeys)
    .values({
      merchantId: input.merchantId,
      key,
      secretSealed: box.seal(secret, apiSecretContext(key)),
      label: input.label?.trim() || "API key",
      canMoveMoney: input.canMoveMoney ?? false,
      createdBy: input.createdBy ?? null,
    })
    .returning({
      id: apiKeys.id,
      createdAt: apiKeys.createdAt,
      label: apiKeys.label,
      canMoveMoney: apiKeys.canMoveMoney,
    });
  // The merchant's first key that may move money becomes its callback key; a later key never
  // replaces it on its own, so creating a key never changes what a merchant's backend verifies with.
  if (row!.canMoveMoney)
    await db
      .update(merchants)
      .set({ callbackKeyId: row!.id })
      .where(and(eq(merchants.id, input.merchantId), isNull(merchants.callbackKeyId)));
  return {
    id: row!.id,
    key,
    secret,
    label: row!.label,
    createdAt: row!.createdAt,
    canMoveMoney: row!.canMoveMoney,
  };
}
