import "server-only";

import { and, eq } from "drizzle-orm";
import type { AuditSource } from "@/lib/audit/record-audit-entry";
import { type Clock, systemClock } from "@/lib/clock";
import type { Db } from "@/lib/db/client";
import { merchants, refundClaims } from "@/lib/db/schema";
import { inTransaction } from "@/lib/db/transaction";
import { notFound } from "@/lib/errors";
import { cancelRefundOffer } from "./cancel-refund-offer";
import { expireRefund } from "./expire-refund";
import { type RefundView, readRefund } from "./read-refund";
import { refundClosed } from "./refund-closed";

/**
 * Withdraws a refund the customer has not claimed: its link stops working and what it held of the
 * invoice's owed amount is free again. Under the refund's row lock, so a claim racing it either
 * lands first (the cancel is refused: the payout is on its way) or finds it cancelled. Cancelling
 * one already cancelled answers it as it is; one lapsed is marked expired and refused.
 */
export async function cancelRefund(
  db: Db,
  input: { merchantId: number; refundId: number; actor: AuditSource; clock?: Clock },
): Promise<RefundView> {
  const clock = input.clock ?? systemClock;
  const outcome = await inTransaction(db, async (tx) => {
    const [claim] = await tx
      .select({ c: refundClaims, merchantName: merchants.name })
      .from(refundClaims)
      .innerJoin(merchants, eq(merchants.id, refundClaims.merchantId))
      .where(and(eq(refundClaims.id, input.refundId), eq(refundClaims.merchantId, input.merchantId)))
      .for("update", { of: refundClaims });
    if (!claim) throw notFound(`There is no refund ${input.refundId} in your account.`);
    const { c } = claim;
    if (c.status === "cancelled") return "done";
    if (c.status === "offered" && c.expiresAt.getTime() <= clock.now().getTime()) return "lapsed";
    if (c.status !== "offered")
      throw refundClosed({ status: c.status, merchantName: claim.merchantName, expiresAt: c.expiresAt });
    await cancelRefundOffer(tx, { claim: c, actor: input.actor, clock });
    return "done";
  });
  if (outcome === "lapsed") {
    await expireRefund(db, { refundId: input.refundId, clock });
    const refund = (await readRefund(db, { merchantId: input.merchantId, id: input.refundId }, clock))!;
    throw refundClosed({ status: "expired", merchantName: refund.merchantName, expiresAt: refund.expiresAt });
  }
  return (await readRefund(db, { merchantId: input.merchantId, id: input.refundId }, clock))!;
}
