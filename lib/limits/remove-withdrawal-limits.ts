import "server-only";

import { and, eq } from "drizzle-orm";
import { type AuditSource, recordAuditEntry } from "@/lib/audit/record-audit-entry";
import type { Executor } from "@/lib/db/client";
import { withdrawalLimits } from "@/lib/db/schema";

/** Removes a merchant's limits in one currency: its withdrawals no longer wait for approval. With `audit`, recorded in the trail (pass a transaction). */
export async function removeWithdrawalLimits(
  db: Executor,
  input: { merchantId: number; currency: string; audit?: AuditSource },
): Promise<boolean> {
  const removed = await db
    .delete(withdrawalLimits)
    .where(
      and(eq(withdrawalLimits.merchantId, input.merchantId), eq(withdrawalLimits.currency, input.currency)),
    )
    .returning({ currency: withdrawalLimits.currency });
  if (input.audit && removed.length > 0)
    await recordAuditEntry(db, {
      merchantId: input.merchantId,
      ...input.audit,
      action: "limit_changed",
      detail: `${input.currency}: limits removed`,
    });
  return removed.length > 0;
}
