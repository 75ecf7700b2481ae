import "server-only";

import { and, desc, eq } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { invoices, transactions } from "@/lib/db/schema";

/** The newest invoices customers started from one of the merchant's links (another merchant's: none). */
export async function listPaymentLinkInvoices(
  db: Executor,
  input: { merchantId: number; linkId: number; limit?: number },
) {
  return db
    .select({
      id: transactions.id,
      foreignId: transactions.foreignId,
      status: transactions.status,
      reason: invoices.statusReason,
      amount: transactions.amount,
      currency: transactions.currency,
      creditedAmount: invoices.creditedAmount,
      createdAt: transactions.createdAt,
    })
    .from(invoices)
    .innerJoin(transactions, eq(transactions.id, invoices.transactionId))
    .where(and(eq(invoices.paymentLinkId, input.linkId), eq(invoices.merchantId, input.merchantId)))
    .orderBy(desc(transactions.id))
    .limit(input.limit ?? 100);
}
