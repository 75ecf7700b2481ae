import "server-only";

import { eq } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { transactions, withdrawals } from "@/lib/db/schema";

export type WithdrawalRecord = {
  id: number;
  merchantId: number;
  status: string;
  endUserReference: string;
  withdrawal: typeof withdrawals.$inferSelect;
};

export async function loadWithdrawal(
  db: Executor,
  id: number,
  lock = false,
): Promise<WithdrawalRecord | undefined> {
  const query = db
    .select({ t: transactions, w: withdrawals })
    .from(transactions)
    .innerJoin(withdrawals, eq(withdrawals.transactionId, transactions.id))
    .where(eq(transactions.id, id));
  const [row] = lock ? await query.for("update") : await query;
  if (!row) return undefined;
  return {
    id: row.t.id,
    merchantId: row.t.merchantId,
    status: row.t.status,
    endUserReference: row.t.endUserReference ?? "",
    withdrawal: row.w,
  };
}
