import "server-only";

import { eq } from "drizzle-orm";
import type { Tx } from "@/lib/db/client";
import { depositAddresses } from "@/lib/db/schema";
import { takeBackInvoicePayment } from "@/lib/invoices/take-back-invoice-payment";
import { transitionStatus } from "@/lib/transactions/transition-status";
import { moveDeposit } from "./move-deposit";

/**
 * Takes back a payment that was only seen (not credited) because a reorganisation removed its
 * block: the deposit becomes `unwound` (kept, for the record) and its invoice no longer counts it
 * (lib/invoices/take-back-invoice-payment.ts). A payment to a permanent
 * address fails its `deposit` transaction. Nothing was
 * posted to the ledger for it, so nothing is reversed there. Returns false when the deposit was no
 * longer `seen` (credited or unwound meanwhile): the conditional update decides, once.
 */
export async function unwindDeposit(tx: Tx, depositId: number): Promise<boolean> {
  const deposit = await moveDeposit(tx, {
    depositId,
    from: "seen",
    to: "unwound",
    set: { confirmations: 0 },
  });
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
  await takeBackInvoicePayment(tx, { deposit, reason: "payment_removed" });
  return true;
}
