import "server-only";

import { and, desc, eq, ne } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { chainTransactions, complianceReviews, deposits, transactions, users } from "@/lib/db/schema";
import { formatAmount } from "@/lib/money";

export type ReviewRow = {
  id: number;
  transaction_id: number;
  /** `invoice` or `deposit`: what the payment was made to. */
  type: string;
  currency: string;
  amount: string;
  sender_address: string | null;
  address: string;
  txid: string;
  score: string;
  reasons: string[];
  status: "held" | "released" | "rejected";
  decided_by: string | null;
  decided_at: string | null;
  /** A rejected payment the operator sent back (`cli compliance refund`): the refund's transaction id. */
  refund_txid: string | null;
  refunded_at: string | null;
  /**
   * What a reorganisation did to the payment: `block_removed` while its block is off the chain (held:
   * it can only be rejected, which books nothing; rejected: its held coins are gone and it cannot be
   * refunded; released: a chain incident), `nothing_arrived` when it was rejected while removed (nothing
   * was held, nothing is refunded; mined again, it is a new payment); null otherwise.
   */
  chain_removal: "block_removed" | "nothing_arrived" | null;
  created_at: string;
};

/**
 * The merchant's review queue: payments held for a decision (oldest first, so none waits forever
 * behind newer ones), or the recent decisions (`released`/`rejected`, newest first), up to `limit`.
 */
export async function listReviews(
  db: Executor,
  input: { merchantId: number; status: "held" | "decided"; limit?: number },
): Promise<ReviewRow[]> {
  const held = input.status === "held";
  const rows = await db
    .select({
      review: complianceReviews,
      type: transactions.type,
      currency: deposits.currency,
      amount: deposits.amount,
      sender: chainTransactions.senderAddress,
      address: chainTransactions.address,
      txid: chainTransactions.txid,
      removedAt: chainTransactions.removedAt,
      depositStatus: deposits.status,
      decidedBy: users.email,
    })
    .from(complianceReviews)
    .innerJoin(deposits, eq(deposits.id, complianceReviews.depositId))
    .innerJoin(chainTransactions, eq(chainTransactions.id, deposits.chainTransactionId))
    .innerJoin(transactions, eq(transactions.id, complianceReviews.transactionId))
    .leftJoin(users, eq(users.id, complianceReviews.decidedBy))
    .where(
      and(
        eq(complianceReviews.merchantId, input.merchantId),
        held ? eq(complianceReviews.status, "held") : ne(complianceReviews.status, "held"),
      ),
    )
    .orderBy(held ? complianceReviews.id : desc(complianceReviews.id))
    .limit(input.limit ?? 100);
  return rows.map((row) => ({
    id: row.review.id,
    transaction_id: row.review.transactionId,
    type: row.type,
    currency: row.currency,
    amount: formatAmount(row.amount),
    sender_address: row.sender,
    address: row.address,
    txid: row.txid,
    score: row.review.score,
    reasons: row.review.reasons,
    status: row.review.status,
    decided_by: row.decidedBy,
    decided_at: row.review.decidedAt?.toISOString() ?? null,
    refund_txid: row.review.refundTxid,
    refunded_at: row.review.refundedAt?.toISOString() ?? null,
    chain_removal:
      row.depositStatus === "unwound" ? "nothing_arrived" : row.removedAt ? "block_removed" : null,
    created_at: row.review.createdAt.toISOString(),
  }));
}
