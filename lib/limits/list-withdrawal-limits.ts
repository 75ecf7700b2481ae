import "server-only";

import { asc, eq } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { withdrawalLimits } from "@/lib/db/schema";
import { formatAmount } from "@/lib/money";
import type { WithdrawalLimitsView } from "./set-withdrawal-limits";

/** A merchant's withdrawal limits, one row per currency that has them. */
export async function listWithdrawalLimits(
  db: Executor,
  merchantId: number,
): Promise<WithdrawalLimitsView[]> {
  const rows = await db
    .select()
    .from(withdrawalLimits)
    .where(eq(withdrawalLimits.merchantId, merchantId))
    .orderBy(asc(withdrawalLimits.currency));
  return rows.map((row) => ({
    currency: row.currency,
    per_withdrawal: formatAmount(row.perWithdrawal),
    per_day: row.perDay === null ? null : formatAmount(row.perDay),
  }));
}
