import "server-only";

import { eq } from "drizzle-orm";
import type { Tx } from "@/lib/db/client";
import { depositAddresses } from "@/lib/db/schema";
import { takeBackInvoicePayment } from "@/lib/invoices/take-back-invoice-payment";
import { transitionStatus } from "@/lib/transactions/transition-status";
import { moveDeposit } from "./move-deposit";

/**
 * Takes back a seen (uncredited) payment whose block a reorganisation removed: the deposit becomes
 * `unwound`, its invoice stops counting it (take-back-invoice-payment.ts), a permanent address's `deposit`
 * transaction fails; nothing is in the ledger to reverse. Returns false when it was no longer `seen`
 * (credited or unwound meanwhile).
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
