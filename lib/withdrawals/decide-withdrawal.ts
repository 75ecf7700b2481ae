import "server-only";

import { eq } from "drizzle-orm";
import { type AuditSource, recordAuditEntry } from "@/lib/audit/record-audit-entry";
import type { Clock } from "@/lib/clock";
import type { Db, Tx } from "@/lib/db/client";
import { withdrawals } from "@/lib/db/schema";
import { inTransaction } from "@/lib/db/transaction";
import { fieldError, KassaError, notFound } from "@/lib/errors";
import { lockActingMember } from "@/lib/team/lock-acting-member";
import { transitionStatus } from "@/lib/transactions/transition-status";
import { loadWithdrawal, type WithdrawalRecord } from "./load-withdrawal";
import { failWithdrawal } from "./settle-withdrawal";
import { broadcastJob } from "./withdrawal-jobs";

export type Decision = "approve" | "decline";

/** What an approver reads when the withdrawal is no longer theirs to decide. */
const DECIDED: Record<string, string> = {
  processing: "it was already approved",
  sending: "it was already approved and is being sent",
  confirmed: "it was already approved and sent",
  declined: "it was already declined",
  error: "the network refused it and its funds were returned",
  rejected: "an operator stopped it and its funds were returned",
};

/**
 * An approver's decision on a `pending` withdrawal, in one transaction under its row lock, so
 * exactly one of two racing decisions wins. The approver is re-read and share-locked, and is never
 * the one who asked (docs/team-and-roles.md). Approving queues the payout; declining refunds by new
 * ledger entries; either queues its callback in the same transaction.
 */
export async function decideWithdrawal(
  db: Db,
  input: {
    merchantId: number;
    withdrawalId: number;
    userId: number;
    decision: Decision;
    /** Who decided, for the audit trail (recorded in the decision's transaction). */
    audit?: AuditSource;
    clock?: Clock;
  },
): Promise<WithdrawalRecord> {
  return inTransaction(db, async (tx) => {
    await lockActingMember(tx, {
      merchantId: input.merchantId,
      userId: input.userId,
      permission: "payouts.approve",
    });
    const record = await loadWithdrawal(tx, input.withdrawalId, true);
    if (!record || record.merchantId !== input.merchantId) throw notFound("No such withdrawal.");
    if (record.status !== "pending") {
      const why = DECIDED[record.status] ?? `it is ${record.status}`;
      throw fieldError({ id: `This withdrawal needs no decision: ${why}.` });
    }
    if (record.withdrawal.batchId !== null) {
      throw fieldError({
        id: `This withdrawal is row ${record.withdrawal.batchRow} of bulk payout ${record.withdrawal.batchId}: approve or decline the bulk payout as a whole.`,
      });
    }
    const now = input.clock?.now() ?? new Date();
    const expiresAt = record.withdrawal.approvalExpiresAt;
    if (expiresAt && expiresAt.getTime() <= now.getTime()) {
      // Its expiry job has not run yet; the approval time is over all the same.
      throw fieldError({ id: "This withdrawal's approval time ran out; it is being declined." });
    }
    if (record.withdrawal.createdByUserId === input.userId) {
      throw new KassaError(
        "forbidden",
        "You asked for this withdrawal, so another user of your account must approve or decline it.",
      );
    }
    await tx
      .update(withdrawals)
      .set({ decidedByUserId: input.userId, decidedAt: now })
      .where(eq(withdrawals.transactionId, record.id));
    if (input.decision === "approve") await approveIn(tx, record);
    else await failWithdrawal(tx, record, "declined", "Declined by an approver.");
    if (input.audit)
      await recordAuditEntry(tx, {
        merchantId: input.merchantId,
        ...input.audit,
        action: input.decision === "approve" ? "payout_approved" : "payout_declined",
        detail: `withdrawal ${record.id}`,
      });
    return (await loadWithdrawal(tx, record.id))!;
  });
}

/** pending → processing, with the broadcast job that any accepted withdrawal gets. */
export async function approveIn(tx: Tx, record: WithdrawalRecord): Promise<void> {
  await transitionStatus(tx, {
    transactionId: record.id,
    kind: "withdrawal",
    to: "processing",
    reason: "approved",
    jobs: [broadcastJob],
  });
}
