import "server-only";

import { and, eq, inArray, sql } from "drizzle-orm";
import type { Clock } from "@/lib/clock";
import type { Tx } from "@/lib/db/client";
import { amountSql, deposits, invoices, transactions } from "@/lib/db/schema";
import { loadInvoiceById } from "@/lib/invoices/load-invoice";
import { setInvoiceStatus } from "@/lib/invoices/set-invoice-status";
import { expireInvoiceIn, settleCreditedInvoice } from "@/lib/invoices/settle-invoice";
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
  // Only payments in the invoice's current pay currency were added to its paid sum (one sent to an
  // address shown before the customer switched coins was not: lib/deposits/record-incoming-payment.ts).
  await tx
    .update(invoices)
    .set({ paidAmount: sql`${invoices.paidAmount} - ${amountSql(deposit.amount)}` })
    .where(
      and(eq(invoices.transactionId, deposit.transactionId), eq(invoices.senderCurrency, deposit.currency)),
    );
  const [inFlight] = await tx
    .select({ id: deposits.id })
    .from(deposits)
    .where(and(eq(deposits.transactionId, deposit.transactionId), inArray(deposits.status, ["seen", "held"])))
    .limit(1);
  const invoice = await loadInvoiceById(tx, deposit.transactionId);
  if (!inFlight && invoice?.status === "processing") {
    // Payments credited meanwhile waited for this one to settle: judged now, they may be complete.
    if (invoice.invoice.confirmedAmount > 0n || invoice.invoice.creditedAmount > 0n) {
      await settleCreditedInvoice(tx, { invoiceId: deposit.transactionId, clock: input.clock });
      return;
    }
    await setInvoiceStatus(tx, deposit.transactionId, "pending", "payment_rejected");
    await expireInvoiceIn(tx, deposit.transactionId, input.clock);
  }
}
