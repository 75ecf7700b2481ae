import "server-only";

import { and, eq, inArray, sql } from "drizzle-orm";
import type { Tx } from "@/lib/db/client";
import { amountSql, depositAddresses, deposits, invoices } from "@/lib/db/schema";
import { loadInvoiceById } from "@/lib/invoices/load-invoice";
import { setInvoiceStatus } from "@/lib/invoices/set-invoice-status";
import { expireInvoiceIn, settleCreditedInvoice } from "@/lib/invoices/settle-invoice";
import { transitionStatus } from "@/lib/transactions/transition-status";

/**
 * Takes back a payment that was only seen (not credited) because a reorganisation removed its
 * block: the deposit becomes `unwound` (kept, for the record), its invoice's paid sum drops, and an
 * invoice left with no other payment in flight (seen, or held for review) is judged on what was
 * credited, as a settlement would be, or, with nothing credited, returns to `pending` (waiting for payment; the
 * checkout says so), or fails at once if its timer ran out meanwhile. A payment to a permanent
 * address fails its `deposit` transaction. Nothing was
 * posted to the ledger for it, so nothing is reversed there. Returns false when the deposit was no
 * longer `seen` (credited or unwound meanwhile): the conditional update decides, once.
 */
export async function unwindDeposit(tx: Tx, depositId: number): Promise<boolean> {
  const [deposit] = await tx
    .update(deposits)
    .set({ status: "unwound", confirmations: 0 })
    .where(and(eq(deposits.id, depositId), eq(deposits.status, "seen")))
    .returning();
  if (!deposit) return false;
  const [address] = await tx
    .select({ kind: depositAddresses.kind })
    .from(depositAddresses)
    .where(eq(depositAddresses.id, deposit.depositAddressId));
  if (address!.kind === "permanent") {
    await transitionStatus(tx, {
      transactionId: deposit.transactionId,
      kind: "deposit",
      to: "failed",
      reason: "payment_removed",
    });
    return true;
  }
  // Only payments in the invoice's current pay currency were added to its paid sum (a payment to an
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
    // A payment held for compliance review is still in flight: its outcome is not known yet.
    .where(and(eq(deposits.transactionId, deposit.transactionId), inArray(deposits.status, ["seen", "held"])))
    .limit(1);
  const invoice = await loadInvoiceById(tx, deposit.transactionId);
  if (!inFlight && invoice?.status === "processing") {
    // Payments credited meanwhile waited for this one to settle: judged now, they may be complete.
    if (invoice.invoice.confirmedAmount > 0n || invoice.invoice.creditedAmount > 0n) {
      await settleCreditedInvoice(tx, { invoiceId: deposit.transactionId });
      return true;
    }
    await setInvoiceStatus(tx, deposit.transactionId, "pending", "payment_removed");
    // Its expiry job found it processing and let it be: a timer that ran out meanwhile applies now.
    await expireInvoiceIn(tx, deposit.transactionId);
  }
  return true;
}
