import "server-only";

import { and, eq, isNotNull, notExists, sql } from "drizzle-orm";
import type { Clock } from "@/lib/clock";
import { defaultScreeningProvider } from "@/lib/compliance/default-screening-provider";
import { holdForReview } from "@/lib/compliance/hold-for-review";
import type { ScreeningProvider } from "@/lib/compliance/screening-provider";
import type { Db } from "@/lib/db/client";
import { chainTransactions, deposits } from "@/lib/db/schema";
import { inTransaction } from "@/lib/db/transaction";
import type { Pricing } from "@/lib/rates/pricing";
import { bookDeposit } from "./book-deposit";
import { moveDeposit } from "./move-deposit";

/**
 * Credits a confirmed deposit to the merchant, exactly once: claimed `seen` under FOR UPDATE, then
 * held for review, held below the minimum, or credited at the rates recorded when it was seen, in
 * one transaction with its ledger entries. Returns true once it no longer waits for confirmations.
 * docs/decisions/payment-rates-and-crediting.md.
 */
export async function creditDeposit(
  db: Db,
  input: { depositId: number; pricing: Pricing; clock?: Clock; screening?: ScreeningProvider },
): Promise<boolean> {
  return inTransaction(db, async (tx) => {
    const [seen] = await tx
      .select()
      .from(deposits)
      .where(
        and(
          eq(deposits.id, input.depositId),
          eq(deposits.status, "seen"),
          // A payment whose block a reorganisation removed is never credited (only unwound).
          notExists(
            tx
              .select({ id: chainTransactions.id })
              .from(chainTransactions)
              .where(
                and(
                  eq(chainTransactions.id, deposits.chainTransactionId),
                  isNotNull(chainTransactions.removedAt),
                ),
              ),
          ),
        ),
      )
      .for("update");
    if (!seen) return false;
    // Screened once, while it is claimed: a payment at or above the merchant's review threshold is
    // held for a person's decision instead (lib/compliance/hold-for-review.ts), never credited first.
    if (await holdForReview(tx, { deposit: seen, provider: input.screening ?? defaultScreeningProvider() }))
      return true;
    const deposit = await moveDeposit(tx, {
      depositId: seen.id,
      from: "seen",
      to: "credited",
      set: { creditedAt: sql`now()` },
    });
    // The row lock holds it `seen` until this transaction ends.
    if (!deposit) throw new Error(`deposit ${seen.id} changed while claimed`);
    await bookDeposit(tx, { deposit, pricing: input.pricing, clock: input.clock });
    return true;
  });
}
