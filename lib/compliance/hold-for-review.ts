import "server-only";

import { and, count, eq, ne } from "drizzle-orm";
import type { Tx } from "@/lib/db/client";
import { chainTransactions, complianceReviews, deposits, merchants, transactions } from "@/lib/db/schema";
import { transitionStatus } from "@/lib/transactions/transition-status";
import { isAtOrAbove } from "./risk-score";
import type { ScreeningProvider } from "./screening-provider";

/**
 * Screens a confirmed payment its caller has just claimed (`seen → credited`, same transaction) and
 * records the score on its chain transaction (`riskscore` in transactions/info). At or above the
 * merchant's review threshold the payment is held instead of credited: the deposit becomes `held`,
 * a review enters the queue, and a permanent-address deposit moves to `verifying` (`not_confirmed`
 * on the wire, with its callback); an invoice stays `processing` and waits. Nothing is booked to the
 * ledger until a member decides (release-review.ts, reject-review.ts). Returns whether it was held.
 * A deposit below the currency's minimum is never credited anyway (it is held in suspense) and is not screened.
 */
export async function holdForReview(
  tx: Tx,
  input: { deposit: typeof deposits.$inferSelect; provider: ScreeningProvider },
): Promise<boolean> {
  const { deposit } = input;
  const [context] = await tx
    .select({
      status: transactions.status,
      type: transactions.type,
      customer: transactions.endUserReference,
      threshold: merchants.reviewThreshold,
      sender: chainTransactions.senderAddress,
      address: chainTransactions.address,
    })
    .from(transactions)
    .innerJoin(merchants, eq(merchants.id, transactions.merchantId))
    .innerJoin(chainTransactions, eq(chainTransactions.id, deposit.chainTransactionId))
    .where(eq(transactions.id, deposit.transactionId));
  if (!context || context.status === "below_minimum") return false;

  const result = await input.provider.score({
    merchantId: deposit.merchantId,
    senders: context.sender ? [context.sender] : [],
    address: context.address,
    currency: deposit.currency,
    amount: deposit.amount,
    customer: context.customer
      ? {
          reference: context.customer,
          previousPayments: await previousPayments(tx, deposit, context.customer),
        }
      : null,
  });
  await tx
    .update(chainTransactions)
    .set({ riskScore: result.score })
    .where(eq(chainTransactions.id, deposit.chainTransactionId));
  if (!isAtOrAbove(result.score, context.threshold)) return false;

  await tx.update(deposits).set({ status: "held", creditedAt: null }).where(eq(deposits.id, deposit.id));
  await tx.insert(complianceReviews).values({
    merchantId: deposit.merchantId,
    depositId: deposit.id,
    transactionId: deposit.transactionId,
    score: result.score,
    reasons: result.reasons,
  });
  if (context.type === "deposit")
    await transitionStatus(tx, {
      transactionId: deposit.transactionId,
      kind: "deposit",
      to: "verifying",
      reason: "compliance_review",
    });
  return true;
}

/** How many of this customer's payments to the merchant were credited before this one. */
async function previousPayments(
  tx: Tx,
  deposit: typeof deposits.$inferSelect,
  customer: string,
): Promise<number> {
  const [row] = await tx
    .select({ n: count() })
    .from(deposits)
    .innerJoin(transactions, eq(transactions.id, deposits.transactionId))
    .where(
      and(
        eq(transactions.merchantId, deposit.merchantId),
        eq(transactions.endUserReference, customer),
        eq(deposits.status, "credited"),
        ne(deposits.id, deposit.id),
      ),
    );
  return row?.n ?? 0;
}
