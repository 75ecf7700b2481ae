import "server-only";

import { eq, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { withdrawals } from "@/lib/db/schema";
import { inTransaction } from "@/lib/db/transaction";
import { transitionStatus } from "@/lib/transactions/transition-status";
import { loadWithdrawal, type WithdrawalRecord } from "./load-withdrawal";

export type WithdrawalClaim = {
  record: WithdrawalRecord;
  /**
   * The claim was made by an earlier attempt that never recorded the network's answer (it died,
   * or the call timed out): the payout may or may not have reached the network.
   */
  isResumed: boolean;
};

/**
 * Claims a withdrawal for sending, in its own committed transaction, before any network call:
 * `processing → sending` under the row lock, so of racing workers and operators exactly one
 * moves it, and from then on it can no longer be rejected. A claim that exists without a txid is
 * handed back as resumed. Anything else (rejected, already recorded) has nothing left to send.
 */
export async function claimWithdrawal(db: Db, withdrawalId: number): Promise<WithdrawalClaim | undefined> {
  return inTransaction(db, async (tx) => {
    const record = await loadWithdrawal(tx, withdrawalId, true);
    if (!record) return undefined;
    if (record.status === "sending" && !record.withdrawal.txid) return { record, isResumed: true };
    if (record.status !== "processing") return undefined;
    await tx
      .update(withdrawals)
      .set({ claimedAt: sql`now()` })
      .where(eq(withdrawals.transactionId, withdrawalId));
    await transitionStatus(tx, {
      transactionId: withdrawalId,
      kind: "withdrawal",
      to: "sending",
      reason: "handed to the network",
    });
    return { record: { ...record, status: "sending" }, isResumed: false };
  });
}
