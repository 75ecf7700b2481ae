import "server-only";

import { and, eq } from "drizzle-orm";
import { type Clock, systemClock } from "@/lib/clock";
import type { Db } from "@/lib/db/client";
import { refundClaims } from "@/lib/db/schema";
import { inTransaction } from "@/lib/db/transaction";
import { recordRefundEvent } from "./record-refund-event";

/**
 * Marks a refund `expired` once its link lapsed unclaimed, with its timeline event; nothing for one
 * claimed, cancelled, already expired or not yet due. Run by its expiry job, and by a claim or a
 * cancel that meets a lapsed link. Returns whether it changed it.
 */
export async function expireRefund(db: Db, input: { refundId: number; clock?: Clock }): Promise<boolean> {
  const now = (input.clock ?? systemClock).now();
  return inTransaction(db, async (tx) => {
    const [claim] = await tx
      .select()
      .from(refundClaims)
      .where(eq(refundClaims.id, input.refundId))
      .for("update");
    if (claim?.status !== "offered" || claim.expiresAt.getTime() > now.getTime()) return false;
    await tx
      .update(refundClaims)
      .set({ status: "expired", endedAt: now })
      .where(and(eq(refundClaims.id, claim.id), eq(refundClaims.status, "offered")));
    await recordRefundEvent(tx, {
      refundId: claim.id,
      invoiceId: claim.invoiceId,
      merchantId: claim.merchantId,
      event: "refund_expired",
    });
    return true;
  });
}
