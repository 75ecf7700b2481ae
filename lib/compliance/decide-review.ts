import "server-only";

import { and, eq, sql } from "drizzle-orm";
import { type AuditSource, recordAuditEntry } from "@/lib/audit/record-audit-entry";
import type { Clock } from "@/lib/clock";
import type { Db, Tx } from "@/lib/db/client";
import { chainTransactions, complianceReviews, deposits } from "@/lib/db/schema";
import { inTransaction } from "@/lib/db/transaction";
import { bookDeposit } from "@/lib/deposits/book-deposit";
import { moveDeposit } from "@/lib/deposits/move-deposit";
import { fieldError, notFound } from "@/lib/errors";
import { formatAmountShort } from "@/lib/money";
import type { Pricing } from "@/lib/rates/pricing";
import { lockActingMember } from "@/lib/team/lock-acting-member";
import { rejectHeldDeposit } from "./reject-held-deposit";

export type ReviewDecision = "release" | "reject";

export type DecidedReview = { id: number; status: "released" | "rejected"; transactionId: number };

/**
 * A member's decision on a held payment, in one transaction with its audit entry: a conditional
 * update `held → released|rejected`, so exactly one of two racing clicks decides. The deciding user
 * is re-read and share-locked (lib/team/lock-acting-member.ts). Release books it as its confirmation
 * would have; reject books it to platform:compliance_held (docs/compliance.md).
 */
export async function decideReview(
  db: Db,
  input: {
    merchantId: number;
    reviewId: number;
    userId: number | null;
    decision: ReviewDecision;
    audit: AuditSource;
    pricing: Pricing;
    clock?: Clock;
  },
): Promise<DecidedReview> {
  return inTransaction(db, async (tx) => {
    if (input.userId !== null)
      await lockActingMember(tx, {
        merchantId: input.merchantId,
        userId: input.userId,
        permission: "compliance.review",
      });
    const status = input.decision === "release" ? "released" : "rejected";
    const [review] = await tx
      .update(complianceReviews)
      .set({ status, decidedBy: input.userId, decidedAt: sql`now()` })
      .where(
        and(
          eq(complianceReviews.id, input.reviewId),
          eq(complianceReviews.merchantId, input.merchantId),
          eq(complianceReviews.status, "held"),
        ),
      )
      .returning();
    if (!review) {
      const [existing] = await tx
        .select({ status: complianceReviews.status })
        .from(complianceReviews)
        .where(
          and(eq(complianceReviews.id, input.reviewId), eq(complianceReviews.merchantId, input.merchantId)),
        );
      if (!existing) throw notFound("No such review.");
      throw fieldError({ id: `This payment needs no decision: it was already ${existing.status}.` });
    }
    const isRemoved = await isRemovedFromChain(tx, review.depositId);
    if (input.decision === "release" && isRemoved)
      throw fieldError({
        id: "A reorganisation removed this payment's block from the chain: it cannot be credited. Reject it instead.",
      });
    const deposit = await moveDeposit(
      tx,
      input.decision === "release"
        ? { depositId: review.depositId, from: "held", to: "credited", set: { creditedAt: sql`now()` } }
        : // Nothing arrived: `unwound`, as a seen payment a reorganisation removed, so `rejected`
          // always means coins booked to platform:compliance_held (what a refund may take back),
          // and a payment mined again is a new deposit, screened again.
          { depositId: review.depositId, from: "held", to: isRemoved ? "unwound" : "rejected" },
    );
    if (!deposit) throw new Error(`review ${review.id}: its deposit ${review.depositId} is not held`);
    if (input.decision === "release")
      await bookDeposit(tx, { deposit, pricing: input.pricing, clock: input.clock });
    else await rejectHeldDeposit(tx, { deposit, isRemoved, clock: input.clock });
    await recordAuditEntry(tx, {
      merchantId: input.merchantId,
      ...input.audit,
      action: input.decision === "release" ? "review_released" : "review_rejected",
      detail: `transaction ${review.transactionId}: ${formatAmountShort(deposit.amount)} ${deposit.currency}, score ${review.score}${isRemoved ? ", its block removed by a reorganisation: nothing held" : ""}`,
    });
    return { id: review.id, status, transactionId: review.transactionId };
  });
}

/**
 * Whether a reorganisation deeper than the confirmations removed the held payment's block (a real
 * chain only). The payment's row stays locked until the decision commits: a reorganisation marking it
 * removed (lib/chain/evm/unwind-reorg.ts) either committed first, and is read here, or waits, and then
 * finds the deposit decided (lib/chain/evm/settle-removed-payment.ts) and records the incident.
 * Unlocked, a release could credit a payment whose removal committed a moment after it was read.
 */
async function isRemovedFromChain(tx: Tx, depositId: number): Promise<boolean> {
  const [row] = await tx
    .select({ removedAt: chainTransactions.removedAt })
    .from(deposits)
    .innerJoin(chainTransactions, eq(chainTransactions.id, deposits.chainTransactionId))
    .where(eq(deposits.id, depositId))
    .for("update", { of: chainTransactions });
  return row?.removedAt != null;
}
