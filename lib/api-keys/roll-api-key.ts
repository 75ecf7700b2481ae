import "server-only";

import { and, eq, isNull } from "drizzle-orm";
import { type AuditActor, recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { type Clock, systemClock } from "@/lib/clock";
import type { SecretBox } from "@/lib/crypto/secret-box";
import type { Db } from "@/lib/db/client";
import { apiKeys } from "@/lib/db/schema";
import { KassaError, notFound } from "@/lib/errors";
import { type CreatedApiKey, createApiKey } from "./create-api-key";

/** The longest overlap a roll may ask for: a week covers any deploy window. */
export const MAX_ROLL_OVERLAP_SECONDS = 7 * 24 * 60 * 60;

/**
 * Rolls a key: a new key (new `pk_…` and secret, the same label, allowlist and scope) is created, and
 * the old one works until the overlap ends, then answers like a revoked key.
 * docs/decisions/api-key-rolls.md.
 */
export async function rollApiKey(
  db: Db,
  box: SecretBox,
  input: {
    merchantId: number;
    keyId: number;
    overlapSeconds: number;
    actor: AuditActor;
    address: string;
    /** The rolling member, recorded as the new key's creator. */
    createdBy: number | null;
    /** Whether the rolling member may create a key that moves money (payouts.create). */
    mayMoveMoney: boolean;
    clock?: Clock;
  },
): Promise<CreatedApiKey & { replacedKey: string; replacedUntil: Date }> {
  const clock = input.clock ?? systemClock;
  const until = new Date(clock.now().getTime() + input.overlapSeconds * 1000);
  return db.transaction(async (tx) => {
    const [old] = await tx
      .update(apiKeys)
      .set({ expiresAt: until })
      .where(
        and(
          eq(apiKeys.id, input.keyId),
          eq(apiKeys.merchantId, input.merchantId),
          isNull(apiKeys.revokedAt),
          // A key already rolled is not rolled again (its end would move).
          isNull(apiKeys.expiresAt),
        ),
      )
      .returning({
        key: apiKeys.key,
        label: apiKeys.label,
        allowedIps: apiKeys.allowedIps,
        canMoveMoney: apiKeys.canMoveMoney,
      });
    if (!old)
      throw notFound(
        "No active API key with that id for this merchant (a rolled key cannot be rolled again).",
      );
    // Thrown inside the transaction: the old key's end is not set either.
    if (old.canMoveMoney && !input.mayMoveMoney)
      throw new KassaError(
        "forbidden",
        "This key may move money (withdrawals, exchanges): only a member who may create payouts can roll it.",
      );
    const created = await createApiKey(tx, box, {
      merchantId: input.merchantId,
      label: old.label,
      canMoveMoney: old.canMoveMoney,
      createdBy: input.createdBy,
    });
    if (old.allowedIps)
      await tx.update(apiKeys).set({ allowedIps: old.allowedIps }).where(eq(apiKeys.id, created.id));
    // Callbacks of the old key's transactions follow the roll (lib/callbacks/resolve-signing-keys.ts).
    await tx.update(apiKeys).set({ replacedById: created.id }).where(eq(apiKeys.id, input.keyId));
    await recordAuditEntry(tx, {
      merchantId: input.merchantId,
      actor: input.actor,
      address: input.address,
      action: "api_key_rolled",
      detail: `${old.key} → ${created.key}; old key valid until ${until.toISOString()}`,
    });
    return { ...created, replacedKey: old.key, replacedUntil: until };
  });
}
