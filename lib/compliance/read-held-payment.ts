import "server-only";

import { eq } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { chainTransactions, complianceReviews, deposits } from "@/lib/db/schema";

export type HeldPayment = {
  status: "held" | "released" | "rejected";
  currency: string;
  /** The real network the payment arrived on (`ethereum`), or null on a sandbox chain. */
  network: string | null;
  /**
   * `rejected` when the rejection booked the coins to platform:compliance_held; `unwound` when a
   * reorganisation had removed the payment's block before it was rejected (nothing arrived, nothing booked).
   */
  depositStatus: string;
  /** Set while a reorganisation has the payment's block removed from the chain (a real chain only). */
  removedAt: Date | null;
  /** What arrived, exactly, in the currency's base units (wei, token units); null on a sandbox chain. */
  baseAmount: bigint | null;
};

/**
 * A review's payment as its refund needs it: which currency, on which chain, and whether its coins
 * are held (lib/compliance/check-refundable.ts). With `lock`, the payment's chain transaction row is
 * locked until the caller's transaction ends, so a reorganisation's watcher (which marks it removed)
 * cannot slip between the check and the booking.
 */
export async function readHeldPayment(
  db: Executor,
  reviewId: number,
  options: { lock?: boolean } = {},
): Promise<HeldPayment | undefined> {
  const query = db
    .select({
      status: complianceReviews.status,
      currency: deposits.currency,
      network: chainTransactions.network,
      depositStatus: deposits.status,
      removedAt: chainTransactions.removedAt,
      baseAmount: chainTransactions.baseAmount,
    })
    .from(complianceReviews)
    .innerJoin(deposits, eq(deposits.id, complianceReviews.depositId))
    .innerJoin(chainTransactions, eq(chainTransactions.id, deposits.chainTransactionId))
    .where(eq(complianceReviews.id, reviewId));
  const [row] = options.lock ? await query.for("update", { of: chainTransactions }) : await query;
  return row;
}
