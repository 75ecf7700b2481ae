import "server-only";

import { eq } from "drizzle-orm";
import { queueRefundCallback } from "@/lib/callbacks/queue-refund-callback";
import type { Tx } from "@/lib/db/client";
import { transactions } from "@/lib/db/schema";
import { recordChange } from "@/lib/transactions/record-change";

export type RefundEvent = "refund_issued" | "refund_claimed" | "refund_cancelled" | "refund_expired";

/**
 * A refund's step on its invoice's timeline: an event that keeps the invoice's status and names the
 * step as its reason, and its `refund.<status>` callback. Called after the refund's row has its new
 * status. The payout's own steps (approved, sent, confirmed) are its own events and callbacks.
 */
export async function recordRefundEvent(
  tx: Tx,
  input: { refundId: number; invoiceId: number; merchantId: number; event: RefundEvent },
): Promise<void> {
  const [invoice] = await tx
    .select({ status: transactions.status })
    .from(transactions)
    .where(eq(transactions.id, input.invoiceId));
  await recordChange(tx, input.invoiceId, {
    merchantId: input.merchantId,
    from: invoice!.status,
    to: invoice!.status,
    reason: input.event,
  });
  await queueRefundCallback(tx, { merchantId: input.merchantId, refundId: input.refundId });
}
