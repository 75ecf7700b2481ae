import "server-only";

import { and, asc, eq } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { refundClaims, transactions, withdrawals } from "@/lib/db/schema";

/** Statuses that return a withdrawal's funds: a refund in one of them sent nothing. */
export const RETURNED_WITHDRAWAL_STATUSES: readonly string[] = ["error", "rejected", "declined"];

/**
 * Whether a payout (by its status) may still send: neither returned nor confirmed on its chain. A
 * refund claimed with such a payout cannot be taken back.
 */
export function isPayoutUnderWay(status: string | null): boolean {
  return status !== null && status !== "confirmed" && !RETURNED_WITHDRAWAL_STATUSES.includes(status);
}

export type Refund = {
  id: number;
  status: string;
  /** What reaches the customer, in `currency` (the coin they paid with). */
  amount: bigint;
  currency: string;
  createdAt: Date;
  /** It ended without sending anything (its funds returned to the balance). */
  isReturned: boolean;
  /** The refund claim it sends (lib/refunds), whose reservation already counts it; null for a plain payout. */
  claimId: number | null;
};

/** The payouts recorded as refunds of an invoice, oldest first; scoped by merchant. */
export async function listRefunds(
  db: Executor,
  input: { merchantId: number; invoiceId: number },
): Promise<Refund[]> {
  const rows = await db
    .select({
      id: withdrawals.transactionId,
      status: transactions.status,
      amount: withdrawals.sentAmount,
      currency: withdrawals.targetCurrency,
      createdAt: transactions.createdAt,
      claimId: refundClaims.id,
    })
    .from(withdrawals)
    .innerJoin(transactions, eq(transactions.id, withdrawals.transactionId))
    .leftJoin(refundClaims, eq(refundClaims.withdrawalId, withdrawals.transactionId))
    .where(and(eq(withdrawals.merchantId, input.merchantId), eq(withdrawals.refundOf, input.invoiceId)))
    .orderBy(asc(withdrawals.transactionId));
  return rows.map((row) => ({ ...row, isReturned: RETURNED_WITHDRAWAL_STATUSES.includes(row.status) }));
}

/**
 * What the plain refund payouts still standing send in `currency`. Claimed refunds are left out:
 * they are counted by what their claim settles (lib/refunds/refund-left.ts), whatever coin they send.
 */
export function refundedAmount(refunds: readonly Refund[], currency: string): bigint {
  return refunds
    .filter((refund) => !refund.isReturned && refund.claimId === null && refund.currency === currency)
    .reduce((sum, refund) => sum + refund.amount, 0n);
}

/** The invoice a payout refunds, or null (scoped by merchant). */
export async function findRefundOf(
  db: Executor,
  input: { merchantId: number; withdrawalId: number },
): Promise<number | null> {
  const [row] = await db
    .select({ refundOf: withdrawals.refundOf })
    .from(withdrawals)
    .where(
      and(eq(withdrawals.merchantId, input.merchantId), eq(withdrawals.transactionId, input.withdrawalId)),
    );
  return row?.refundOf ?? null;
}
