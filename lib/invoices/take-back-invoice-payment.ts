import "server-only";

import { and, eq, inArray, sql } from "drizzle-orm";
import type { Clock } from "@/lib/clock";
import type { Tx } from "@/lib/db/client";
import { amountSql, deposits, invoices } from "@/lib/db/schema";
import { expireInvoice } from "./expire-invoice";
import { loadInvoiceById } from "./load-invoice";
import { setInvoiceStatus } from "./set-invoice-status";
import { settleCreditedInvoice } from "./settle-invoice";

/**
 * An invoice no longer counts a payment it was waiting on (a reorganisation removed its block, or a
 * reviewer rejected it): its paid sum drops, and with no other payment in flight (seen, or held for
 * review) the invoice is judged on what was credited, as a settlement would be, or, with nothing
 * credited, returns to `pending` (the checkout asks again), or fails at once if its timer ran out
 * meanwhile. One implementation for both, so the two can never judge an invoice differently.
 */
export async function takeBackInvoicePayment(
  tx: Tx,
  input: {
    deposit: { transactionId: number; currency: string; amount: bigint };
    reason: "payment_removed" | "payment_rejected";
    clock?: Clock;
  },
): Promise<void> {
  const { deposit } = input;
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
  if (inFlight || invoice?.status !== "processing") return;
  // Payments credited meanwhile waited for this one to settle: judged now, they may be complete.
  if (invoice.invoice.confirmedAmount > 0n || invoice.invoice.creditedAmount > 0n) {
    await settleCreditedInvoice(tx, { invoiceId: deposit.transactionId, clock: input.clock });
    return;
  }
  await setInvoiceStatus(tx, deposit.transactionId, "pending", input.reason);
  // Its expiry job found it processing and let it be: a timer that ran out meanwhile applies now.
  await expireInvoice(tx, deposit.transactionId, input.clock);
}
