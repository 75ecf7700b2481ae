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
 * transaction): the coins did reach Kassa's address, so they leave `platform:chain` as any deposit,
 * into `platform:compliance_held` instead of the merchant's balance, where they stay until the
 * operator refunds them (docs/OPERATIONS.md, "Rejected payments"); the ledger sums to zero. A
 * permanent-address deposit ends `rejected` (`cancelled` on the wire) with its callback. An invoice
 * no longer counts the payment: with nothing else in flight (seen or held) its credited payments are
 * judged as a settlement would (paid in full: `confirmed`); with none it waits for payment again
 * (`pending`), or fails at once when its time ran out, as when a reorganisation takes a payment back.
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
