import "server-only";

import { and, eq } from "drizzle-orm";
import { isKeyActive } from "@/lib/api-keys/follow-rolls";
import { type AuditSource, recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { systemClock } from "@/lib/clock";
import type { Db } from "@/lib/db/client";
import { apiKeys, merchants } from "@/lib/db/schema";
import { fieldError } from "@/lib/errors";

/**
 * Designates the merchant's callback key (docs/decisions/callback-signing-key.md): an active key of
 * this merchant that may move money, since it signs the callbacks of payouts and refunds made in
 * the dashboard. Recorded in the audit trail in the same transaction. The key row is locked while
 * the choice is written, so a revocation racing it either lands first (and the choice is refused)
 * or after (and the page says the chosen key is revoked).
 */
export async function setCallbackKey(
  db: Db,
  input: { merchantId: number; keyId: number; audit: AuditSource },
): Promise<{ id: number; key: string; label: string }> {
  return db.transaction(async (tx) => {
    const [key] = await tx
      .select()
      .from(apiKeys)
      .where(and(eq(apiKeys.id, input.keyId), eq(apiKeys.merchantId, input.merchantId)))
      .for("update");
    if (!key || !isKeyActive(key, systemClock.now()))
      throw fieldError({ key_id: "Choose one of your active API keys." });
    if (!key.canMoveMoney)
      throw fieldError({
        key_id:
          "This key may not move money. The callback key signs payout callbacks too: choose a key that may.",
      });
    await tx.update(merchants).set({ callbackKeyId: key.id }).where(eq(merchants.id, input.merchantId));
    await recordAuditEntry(tx, {
      merchantId: input.merchantId,
      ...input.audit,
      action: "callback_key_changed",
      detail: `${key.key} (${key.label})`,
    });
    return { id: key.id, key: key.key, label: key.label };
  });
}
