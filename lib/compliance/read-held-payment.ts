import "server-only";

import { eq } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { chainTransactions, complianceReviews, deposits } from "@/lib/db/schema";

export type HeldPayment = {
  status: "held" | "released" | "rejected";
  currency: string;
  /** The real network the payment arrived on (`ethereum`), or null on a sandbox chain. */
  network: string | null;
};

/** A review's payment as its refund needs it: which currency and on which chain it was paid. */
export async function readHeldPayment(db: Executor, reviewId: number): Promise<HeldPayment | undefined> {
  const [row] = await db
    .select({
      status: complianceReviews.status,
      currency: deposits.currency,
      network: chainTransactions.network,
    })
    .from(complianceReviews)
    .innerJoin(deposits, eq(deposits.id, complianceReviews.depositId))
    .leftJoin(chainTransactions, eq(chainTransactions.id, deposits.chainTransactionId))
    .where(eq(complianceReviews.id, reviewId));
  return row;
}
