import "server-only";

import { eq } from "drizzle-orm";
import type { Clock } from "@/lib/clock";
import type { Tx } from "@/lib/db/client";
import { type deposits, transactions } from "@/lib/db/schema";
import { takeBackInvoicePayment } from "@/lib/invoices/take-back-invoice-payment";
import { platformAccount } from "@/lib/ledger/accounts";
import { postJournal } from "@/lib/ledger/post-journal";
import { formatAmount } from "@/lib/money";
import { transitionStatus } from "@/lib/transactions/transition-status";

/**
 * Books a payment a reviewer rejected (its deposit already `rejected` by the caller, same
 * transaction) from platform:chain into platform:compliance_held until the operator refunds it; a
 * permanent-address deposit ends `rejected`, and an invoice no longer counts the payment (judged
 * again as a settlement would). docs/compliance.md.
 */
export async function rejectHeldDeposit(
  tx: Tx,
  input: {
    deposit: typeof deposits.$inferSelect;
    /** A reorganisation removed its block: no coins arrived, so nothing is booked. */
    isRemoved: boolean;
    clock?: Clock;
  },
): Promise<void> {
  const { deposit } = input;
  if (!input.isRemoved)
    await postJournal(tx, {
      merchantId: deposit.merchantId,
      transactionId: deposit.transactionId,
      kind: "deposit_compliance_rejected",
      memo: `Payment rejected in compliance review, held: ${formatAmount(deposit.amount)} ${deposit.currency}`,
      entries: [
        { account: platformAccount("platform:chain", deposit.currency), amount: -deposit.amount },
        { account: platformAccount("platform:compliance_held", deposit.currency), amount: deposit.amount },
      ],
    });
  const [transaction] = await tx
    .select({ type: transactions.type })
    .from(transactions)
    .where(eq(transactions.id, deposit.transactionId));
  if (transaction?.type === "deposit") {
    await transitionStatus(tx, {
      transactionId: deposit.transactionId,
      kind: "deposit",
      to: "rejected",
      reason: "compliance_rejected",
    });
    return;
  }
  await takeBackInvoicePayment(tx, { deposit, reason: "payment_rejected", clock: input.clock });
}
