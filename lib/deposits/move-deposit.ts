import "server-only";

import { and, eq, type SQL } from "drizzle-orm";
import type { Tx } from "@/lib/db/client";
import { deposits } from "@/lib/db/schema";
import { DEPOSIT_TRANSITIONS, type DepositStatus, isAllowedMove } from "@/lib/transactions/statuses";

/**
 * Moves a payment's row from `from` to `to` (DEPOSIT_TRANSITIONS), with the columns that change
 * with it, if it is still `from`: the row as it is now, or undefined when it had already moved on.
 */
export async function moveDeposit(
  tx: Tx,
  input: {
    depositId: number;
    from: DepositStatus;
    to: DepositStatus;
    set?: { creditedAt?: SQL; confirmations?: number };
  },
): Promise<typeof deposits.$inferSelect | undefined> {
  if (!isAllowedMove(DEPOSIT_TRANSITIONS, input.from, input.to))
    throw new Error(`a deposit cannot go from ${input.from} to ${input.to}`);
  const [deposit] = await tx
    .update(deposits)
    .set({ ...input.set, status: input.to })
    .where(and(eq(deposits.id, input.depositId), eq(deposits.status, input.from)))
    .returning();
  return deposit;
}
