import "server-only";

import type { apiKeys } from "@/lib/db/schema";

type KeyRow = typeof apiKeys.$inferSelect;

/** Whether a key may sign and be used at `now`: not revoked, not past the end of a roll's overlap. */
export const isKeyActive = (row: KeyRow, now: Date) =>
  row.revokedAt === null && (row.expiresAt === null || row.expiresAt.getTime() > now.getTime());

/**
 * The first active key along the roll chain from `id` (the key itself, or the key a roll replaced
 * it with, and so on), or undefined: a key revoked or expired without a live replacement. `keys`
 * are the merchant's keys by id.
 */
export function followRolls(keys: Map<number, KeyRow>, id: number | null | undefined, now: Date) {
  const seen = new Set<number>();
  let row = id == null ? undefined : keys.get(id);
  while (row && !seen.has(row.id)) {
    if (isKeyActive(row, now)) return row;
    seen.add(row.id);
    row = row.replacedById === null ? undefined : keys.get(row.replacedById);
  }
  return undefined;
}
