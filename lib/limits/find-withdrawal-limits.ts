import "server-only";

import { sql } from "drizzle-orm";
import { type Executor, queryRows } from "@/lib/db/client";
import { parseStoredAmount } from "@/lib/money";

export type LimitRow = { perWithdrawal: bigint; perDay: bigint | null };

/** The merchant's limits in one currency, or undefined when it has none. */
export async function findWithdrawalLimits(
  db: Executor,
  input: { merchantId: number; currency: string; lock?: boolean },
): Promise<LimitRow | undefined> {
  const [row] = await queryRows<{ per_withdrawal: string; per_day: string | null }>(
    db,
    sql`select per_withdrawal::text, per_day::text from withdrawal_limits
        where merchant_id = ${input.merchantId} and currency = ${input.currency}
        ${input.lock ? sql`for update` : sql``}`,
  );
  if (!row) return undefined;
  return {
    perWithdrawal: parseStoredAmount(row.per_withdrawal),
    perDay: row.per_day === null ? null : parseStoredAmount(row.per_day),
  };
}
