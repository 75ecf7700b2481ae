import "server-only";

import { and, eq, gt, notInArray, or, sql } from "drizzle-orm";
import { type Clock, sqlNow } from "@/lib/clock";
import type { Executor } from "@/lib/db/client";
import { refundClaims, transactions } from "@/lib/db/schema";
import { parseStoredAmount } from "@/lib/money";
import { RETURNED_WITHDRAWAL_STATUSES } from "@/lib/withdrawals/list-refunds";

/**
 * What the refund claims of an invoice hold of what it owes back in `currency` (the coin paid): one
 * still open, or claimed with a payout that has not returned its funds. An offered refund past its
 * expiry holds nothing, marked expired or not. Run under the invoice's row lock to count in turn.
 */
export async function reservedByClaims(
  db: Executor,
  input: { invoiceId: number; currency: string; clock?: Clock },
): Promise<bigint> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${refundClaims.owedAmount}), 0)::text` })
    .from(refundClaims)
    .leftJoin(transactions, eq(transactions.id, refundClaims.withdrawalId))
    .where(
      and(
        eq(refundClaims.invoiceId, input.invoiceId),
        eq(refundClaims.payCurrency, input.currency),
        or(
          and(eq(refundClaims.status, "offered"), gt(refundClaims.expiresAt, sqlNow(input.clock))),
          and(
            eq(refundClaims.status, "claimed"),
            notInArray(transactions.status, [...RETURNED_WITHDRAWAL_STATUSES]),
          ),
        ),
      ),
    );
  return parseStoredAmount(row?.total ?? "0");
}
