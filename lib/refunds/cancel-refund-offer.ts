import "server-only";

import { eq } from "drizzle-orm";
import { type AuditSource, recordAuditEntry } from "@/lib/audit/record-audit-entry";
import type { Clock } from "@/lib/clock";
import type { Tx } from "@/lib/db/client";
import { refundClaims } from "@/lib/db/schema";
import { recordRefundEvent } from "./record-refund-event";

/**
 * Ends a refund offer the customer has not claimed, its row already locked and found `offered` by
 * the caller: marked cancelled, its timeline event and `refund.cancelled` callback, and the audit
 * entry (`why` says what cancelled it, when not the merchant's own cancel).
 */
export async function cancelRefundOffer(
  tx: Tx,
  input: {
    claim: { id: number; invoiceId: number; merchantId: number };
    actor: AuditSource;
    clock: Clock;
    why?: string;
  },
): Promise<void> {
  const { claim } = input;
  await tx
    .update(refundClaims)
    .set({ status: "cancelled", endedAt: input.clock.now() })
    .where(eq(refundClaims.id, claim.id));
  await recordRefundEvent(tx, {
    refundId: claim.id,
    invoiceId: claim.invoiceId,
    merchantId: claim.merchantId,
    event: "refund_cancelled",
  });
  await recordAuditEntry(tx, {
    merchantId: claim.merchantId,
    actor: input.actor.actor,
    address: input.actor.address,
    action: "refund_cancelled",
    detail: `refund ${claim.id} of invoice ${claim.invoiceId}${input.why ? `: ${input.why}` : ""}`,
  });
}
