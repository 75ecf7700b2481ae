import "server-only";

import { eq } from "drizzle-orm";
import type { Tx } from "@/lib/db/client";
import { invoices } from "@/lib/db/schema";
import type { InvoiceReason, InvoiceStatus } from "@/lib/transactions/statuses";
import { transitionStatus } from "@/lib/transactions/transition-status";

/** An invoice's status change through the state machine, with the reason kept on the invoice. */
export async function setInvoiceStatus(
  tx: Tx,
  invoiceId: number,
  to: InvoiceStatus,
  reason: InvoiceReason | "currency_fixed" | "payment_seen" | "awaiting_remainder" | "payment_removed",
): Promise<void> {
  // The reason first: the transition queues the callback, whose body should carry it.
  await tx.update(invoices).set({ statusReason: reason }).where(eq(invoices.transactionId, invoiceId));
  await transitionStatus(tx, { transactionId: invoiceId, kind: "invoice", to, reason });
}
