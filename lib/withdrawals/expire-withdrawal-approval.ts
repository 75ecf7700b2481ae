import "server-only";

import { eq } from "drizzle-orm";
import type { Clock } from "@/lib/clock";
import type { Db } from "@/lib/db/client";
import { withdrawals } from "@/lib/db/schema";
import { inTransaction } from "@/lib/db/transaction";
import { loadWithdrawal } from "./load-withdrawal";
import { failWithdrawal } from "./settle-withdrawal";

/**
 * The approval time of a pending withdrawal ran out (its expiry job): it is declined with the funds
 * returned and the `declined` callback, unless someone decided first. Judged by the given clock.
 */
export async function expireWithdrawalApproval(db: Db, input: { withdrawalId: number; clock?: Clock }) {
  return inTransaction(db, async (tx) => {
    const record = await loadWithdrawal(tx, input.withdrawalId, true);
    const expiresAt = record?.withdrawal.approvalExpiresAt;
    if (record?.status !== "pending" || !expiresAt) return false;
    // A job run early (another worker's clock) leaves it for a later run.
    if (expiresAt.getTime() > (input.clock?.now() ?? new Date()).getTime()) {
      throw new Error(`withdrawal ${record.id} is not due to expire until ${expiresAt.toISOString()}`);
    }
    await tx
      .update(withdrawals)
      .set({ decidedAt: input.clock?.now() ?? new Date() })
      .where(eq(withdrawals.transactionId, record.id));
    await failWithdrawal(tx, record, "declined", "Expired: nobody approved it in time.");
    return true;
  });
}
