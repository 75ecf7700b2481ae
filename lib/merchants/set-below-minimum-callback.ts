import "server-only";

import { eq } from "drizzle-orm";
import { type AuditSource, recordAuditEntry } from "@/lib/audit/record-audit-entry";
import type { Db } from "@/lib/db/client";
import { merchants } from "@/lib/db/schema";
import { notFound } from "@/lib/errors";

/**
 * Turns the public API's optional "deposits less than minimum amount" callback on or off for a
 * merchant (lib/deposits/announce-below-minimum.ts). Off by default: Kassa's choice, since a
 * handler written for the ordinary deposit callbacks would not expect a `cancelled` deposit. With
 * `audit`, recorded in the trail in the same transaction.
 */
export async function setBelowMinimumCallback(
  db: Db,
  input: { merchantId: number; isOn: boolean; audit?: AuditSource },
): Promise<void> {
  await db.transaction(async (tx) => {
    const updated = await tx
      .update(merchants)
      .set({ isBelowMinimumCallbackOn: input.isOn })
      .where(eq(merchants.id, input.merchantId))
      .returning({ id: merchants.id });
    if (updated.length === 0) throw notFound("No such merchant.");
    if (input.audit)
      await recordAuditEntry(tx, {
        merchantId: input.merchantId,
        ...input.audit,
        action: "callback_settings_changed",
        detail: `below-minimum deposit callback ${input.isOn ? "on" : "off"}`,
      });
  });
}
