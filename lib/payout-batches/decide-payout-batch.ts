import "server-only";

import { and, asc, eq, inArray } from "drizzle-orm";
import { type AuditSource, recordAuditEntry } from "@/lib/audit/record-audit-entry";
import type { Clock } from "@/lib/clock";
import type { Db } from "@/lib/db/client";
import { payoutBatches, transactions, withdrawals } from "@/lib/db/schema";
import { inTransaction } from "@/lib/db/transaction";
import { fieldError, KassaError, notFound } from "@/lib/errors";
import { lockActingMember } from "@/lib/team/lock-acting-member";
import { approveIn, type Decision } from "@/lib/withdrawals/decide-withdrawal";
import { loadWithdrawal } from "@/lib/withdrawals/load-withdrawal";
import { failWithdrawal } from "@/lib/withdrawals/settle-withdrawal";

/**
 * One approver's decision on a whole bulk payout waiting for approval, in one transaction under
 * the batch's row lock, so of two racing decisions exactly one wins: every pending payout of the
 * batch is approved (queued for sending) or declined (its funds returned), each with its callback.
 * As for a single withdrawal, the one who sent the batch cannot decide it, nor can anyone once its
 * approval time ran out (the payouts' expiry jobs decline them).
 */
export async function decidePayoutBatch(
  db: Db,
  input: {
    merchantId: number;
    batchId: number;
    userId: number;
    decision: Decision;
    audit?: AuditSource;
    clock?: Clock;
  },
): Promise<{ decided: number }> {
  return inTransaction(db, async (tx) => {
    await lockActingMember(tx, {
      merchantId: input.merchantId,
      userId: input.userId,
      permission: "payouts.approve",
    });
    const [batch] = await tx
      .select()
      .from(payoutBatches)
      .where(and(eq(payoutBatches.id, input.batchId), eq(payoutBatches.merchantId, input.merchantId)))
      .for("update");
    if (!batch) throw notFound("No such bulk payout.");
    if (batch.createdByUserId === input.userId)
      throw new KassaError(
        "forbidden",
        "You sent this bulk payout, so another user of your account must approve or decline it.",
      );
    const pending = await tx
      .select({ id: withdrawals.transactionId, expiresAt: withdrawals.approvalExpiresAt })
      .from(withdrawals)
      .innerJoin(transactions, eq(transactions.id, withdrawals.transactionId))
      .where(and(eq(withdrawals.batchId, batch.id), eq(transactions.status, "pending")))
      .orderBy(asc(withdrawals.batchRow));
    if (pending.length === 0)
      throw fieldError({ id: "This bulk payout needs no decision: it was already approved or declined." });
    const now = input.clock?.now() ?? new Date();
    if (pending.some((p) => p.expiresAt !== null && p.expiresAt.getTime() <= now.getTime()))
      throw fieldError({ id: "This bulk payout's approval time ran out; its payouts are being declined." });
    await tx
      .update(withdrawals)
      .set({ decidedByUserId: input.userId, decidedAt: now })
      .where(
        inArray(
          withdrawals.transactionId,
          pending.map((p) => p.id),
        ),
      );
    for (const { id } of pending) {
      const record = (await loadWithdrawal(tx, id, true))!;
      if (input.decision === "approve") await approveIn(tx, record);
      else await failWithdrawal(tx, record, "declined", "Declined by an approver, with its bulk payout.");
    }
    if (input.audit)
      await recordAuditEntry(tx, {
        merchantId: input.merchantId,
        ...input.audit,
        action: input.decision === "approve" ? "payout_approved" : "payout_declined",
        detail: `bulk payout ${batch.id} (${batch.reference}): ${pending.length} payouts`,
      });
    return { decided: pending.length };
  });
}
