import "server-only";

import { and, eq } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { withdrawalLimits } from "@/lib/db/schema";

/** Removes a merchant's limits in one currency: its withdrawals no longer wait for approval. */
export async function removeWithdrawalLimits(
  db: Executor,
  input: { merchantId: number; currency: string },
): Promise<boolean> {
  const removed = await db
    .delete(withdrawalLimits)
    .where(
      and(eq(withdrawalLimits.merchantId, input.merchantId), eq(withdrawalLimits.currency, input.currency)),
    )
    .returning({ currency: withdrawalLimits.currency });
  return removed.length > 0;
}
