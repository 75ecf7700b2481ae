import "server-only";

import { desc, eq } from "drizzle-orm";
import { followRolls, isKeyActive } from "@/lib/api-keys/follow-rolls";
import { systemClock } from "@/lib/clock";
import type { Executor } from "@/lib/db/client";
import { apiKeys, merchants } from "@/lib/db/schema";

type KeyRow = typeof apiKeys.$inferSelect;

export type CallbackKeySummary = { id: number; key: string; label: string };

const summary = (row: KeyRow): CallbackKeySummary => ({ id: row.id, key: row.key, label: row.label });

/**
 * What the Callbacks page shows of the designated callback key: the key chosen, the key that signs
 * for it now (the chosen one, or the key a roll replaced it with once the overlap ended), why none
 * signs when none does, and the keys an owner may choose (active, may move money).
 */
export async function readCallbackKey(db: Executor, merchantId: number) {
  const now = systemClock.now();
  const [merchant] = await db
    .select({ callbackKeyId: merchants.callbackKeyId })
    .from(merchants)
    .where(eq(merchants.id, merchantId));
  const rows = await db
    .select()
    .from(apiKeys)
    .where(eq(apiKeys.merchantId, merchantId))
    .orderBy(desc(apiKeys.id));
  const byId = new Map(rows.map((row) => [row.id, row]));
  const chosen = merchant?.callbackKeyId == null ? undefined : byId.get(merchant.callbackKeyId);
  const signing = followRolls(byId, chosen?.id, now);
  return {
    chosen: chosen ? { ...summary(chosen), is_revoked: chosen.revokedAt !== null } : null,
    signing: signing ? summary(signing) : null,
    /** Why no key signs the dashboard's callbacks; null when one does. */
    problem: signing ? null : chosen ? ("revoked" as const) : ("none_chosen" as const),
    candidates: rows.filter((row) => isKeyActive(row, now) && row.canMoveMoney).map(summary),
  };
}
