import "server-only";

import { and, count, eq, ne, type SQL } from "drizzle-orm";
import type { Tx } from "@/lib/db/client";
import {
  chainTransactions,
  complianceReviews,
  depositAddresses,
  deposits,
  merchants,
  transactions,
} from "@/lib/db/schema";
import { moveDeposit } from "@/lib/deposits/move-deposit";
import { transitionStatus } from "@/lib/transactions/transition-status";
import { isAtOrAbove } from "./risk-score";
import type { ScreeningProvider } from "./screening-provider";

/**
 * Screens a confirmed payment its caller has just claimed (still `seen`, locked), records the score
 * on its chain transaction, and at or above the merchant's review threshold holds it for review
 * instead of crediting it (nothing booked until a member decides). Returns whether it was held.
 * docs/compliance.md, docs/decisions/payment-rates-and-crediting.md.
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
      foreignId: depositAddresses.foreignId,
    })
    .from(transactions)
    .innerJoin(merchants, eq(merchants.id, transactions.merchantId))
    .innerJoin(chainTransactions, eq(chainTransactions.id, deposit.chainTransactionId))
    .innerJoin(depositAddresses, eq(depositAddresses.id, deposit.depositAddressId))
    .where(eq(transactions.id, deposit.transactionId));
  if (!context || context.status === "below_minimum") return false;

  const result = await input.provider.score({
    merchantId: deposit.merchantId,
    senders: context.sender ? [context.sender] : [],
    address: context.address,
    currency: deposit.currency,
    amount: deposit.amount,
    customer: await customerOf(tx, { deposit, reference: context.customer, foreignId: context.foreignId }),
  });
  await tx
    .update(chainTransactions)
    .set({ riskScore: result.score })
    .where(eq(chainTransactions.id, deposit.chainTransactionId));
  if (!isAtOrAbove(result.score, context.threshold)) return false;

  // Held straight from `seen`: the caller credits only a payment this did not hold.
  await moveDeposit(tx, { depositId: deposit.id, from: "seen", to: "held" });
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

/**
 * Who paid, as the merchant knows them: the `end_user_reference` of the invoice or address, else the
 * permanent address's `foreign_id` (one address per customer), with how many of their payments were
 * credited before this one. Null when the payment names no customer (an invoice without a reference).
 */
async function customerOf(
  tx: Tx,
  input: { deposit: typeof deposits.$inferSelect; reference: string | null; foreignId: string | null },
): Promise<{ reference: string; previousPayments: number } | null> {
  const { deposit } = input;
  let same: SQL;
  let reference: string;
  if (input.reference) {
    reference = input.reference;
    same = eq(transactions.endUserReference, input.reference);
  } else if (input.foreignId) {
    reference = input.foreignId;
    same = eq(depositAddresses.foreignId, input.foreignId);
  } else return null;
  const [row] = await tx
    .select({ n: count() })
    .from(deposits)
    .innerJoin(transactions, eq(transactions.id, deposits.transactionId))
    .innerJoin(depositAddresses, eq(depositAddresses.id, deposits.depositAddressId))
    .where(
      and(
        eq(deposits.merchantId, deposit.merchantId),
        same,
        eq(deposits.status, "credited"),
        ne(deposits.id, deposit.id),
      ),
    );
  return { reference, previousPayments: row?.n ?? 0 };
}
