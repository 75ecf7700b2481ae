import "server-only";

import { eq } from "drizzle-orm";
import { type AuditAction, type AuditSource, recordAuditEntry } from "@/lib/audit/record-audit-entry";
import type { Db } from "@/lib/db/client";
import { merchants } from "@/lib/db/schema";
import { inTransaction } from "@/lib/db/transaction";
import { notFound } from "@/lib/errors";

/**
 * One setting on the merchant's own row (callback URL, optional callbacks, review threshold) and,
 * with `audit`, its entry in the trail, in one transaction: the change and its record never part.
 */
export async function updateMerchantSetting(
  db: Db,
  input: {
    merchantId: number;
    set: Partial<typeof merchants.$inferInsert>;
    audit?: AuditSource;
    action: AuditAction;
    detail: string;
  },
): Promise<void> {
  await inTransaction(db, async (tx) => {
    const updated = await tx
      .update(merchants)
      .set(input.set)
      .where(eq(merchants.id, input.merchantId))
      .returning({ id: merchants.id });
    if (updated.length === 0) throw notFound("No such merchant.");
    if (input.audit)
      await recordAuditEntry(tx, {
        merchantId: input.merchantId,
        ...input.audit,
        action: input.action,
        detail: input.detail,
      });
  });
}
