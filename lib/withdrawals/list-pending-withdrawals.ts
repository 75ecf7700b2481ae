import "server-only";

import { and, asc, eq, isNull } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { transactions, users, withdrawals } from "@/lib/db/schema";
import { formatAmount } from "@/lib/money";
import { type ValueNow, valueNow } from "@/lib/rates/value-now";
import { describeReceiver } from "./describe-receiver";

export type PendingWithdrawal = {
  id: number;
  kind: string;
  currency: string;
  amount: string;
  total_debit: string;
  target_currency: string;
  sent: string;
  /** What `amount` is worth now in the dashboard's display currency; null without a price. */
  value_now: ValueNow | null;
  /** Who receives it, from its receiver data: a name, a company, or the merchant's own wallet. */
  receiver: string;
  /** The customer reference it was sent with. */
  end_user_reference: string | null;
  /** The invoice this payout refunds; null for any other payout. */
  refund_of: number | null;
  address: string;
  tag: string | null;
  created_at: string;
  expires_at: string | null;
  /** Who asked for it in the dashboard; null through the API. */
  created_by: string | null;
  /** False when the viewer asked for it: another user must decide. */
  can_decide: boolean;
};

/** A merchant's withdrawals waiting for an approver, oldest first (the one expiring soonest), at most 200. */
export async function listPendingWithdrawals(
  db: Executor,
  input: { merchantId: number; viewerUserId: number },
): Promise<PendingWithdrawal[]> {
  const rows = await db
    .select({
      w: withdrawals,
      createdAt: transactions.createdAt,
      endUserReference: transactions.endUserReference,
      creator: users.email,
    })
    .from(withdrawals)
    .innerJoin(transactions, eq(transactions.id, withdrawals.transactionId))
    .leftJoin(users, eq(users.id, withdrawals.createdByUserId))
    // A bulk payout's rows wait for one decision on the whole batch (listPendingPayoutBatches).
    .where(
      and(
        eq(withdrawals.merchantId, input.merchantId),
        eq(transactions.status, "pending"),
        isNull(withdrawals.batchId),
      ),
    )
    .orderBy(asc(withdrawals.transactionId))
    .limit(200);
  const values = await valueNow(db, {
    merchantId: input.merchantId,
    amounts: rows.map(({ w }) => ({ amount: w.principal, currency: w.sourceCurrency })),
  });
  return rows.map(({ w, createdAt, endUserReference, creator }, index) => ({
    id: w.transactionId,
    kind: w.kind,
    currency: w.sourceCurrency,
    amount: formatAmount(w.principal),
    total_debit: formatAmount(w.totalDebit),
    target_currency: w.targetCurrency,
    sent: formatAmount(w.sentAmount),
    value_now: values[index]!,
    receiver: describeReceiver(w.receiverType, w.receiverData),
    end_user_reference: endUserReference,
    refund_of: w.refundOf,
    address: w.address,
    tag: w.tag,
    created_at: createdAt.toISOString(),
    expires_at: w.approvalExpiresAt?.toISOString() ?? null,
    created_by: creator,
    can_decide: w.createdByUserId !== input.viewerUserId,
  }));
}
