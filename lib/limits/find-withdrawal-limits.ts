import "server-only";

import { sql } from "drizzle-orm";
import { type Executor, queryRowsPrepared } from "@/lib/db/client";
import { parseStoredAmount } from "@/lib/money";

export type LimitRow = { perWithdrawal: bigint; perDay: bigint | null };

/**
 * The merchant's limits in each of `currencies` that has them (absent from the map otherwise). With
 * `lock`, the rows are locked in currency order, so two movements that touch the same currencies
 * always take their locks in the same order and never deadlock each other.
 */
export async function findWithdrawalLimits(
  db: Executor,
  input: { merchantId: number; currencies: readonly string[]; lock?: boolean },
): Promise<Map<string, LimitRow>> {
  const limits = new Map<string, LimitRow>();
  if (input.currencies.length === 0) return limits;
  const rows = await queryRowsPrepared<{ currency: string; per_withdrawal: string; per_day: string | null }>(
    db,
    sql`select currency, per_withdrawal::text, per_day::text from withdrawal_limits
        where merchant_id = ${input.merchantId}
          and currency in (${sql.join(
            input.currencies.map((currency) => sql`${currency}`),
            sql`, `,
          )})
        order by currency
        ${input.lock ? sql`for update` : sql``}`,
  );
  for (const row of rows) {
    limits.set(row.currency, {
      perWithdrawal: parseStoredAmount(row.per_withdrawal),
      perDay: row.per_day === null ? null : parseStoredAmount(row.per_day),
    });
  }
  return limits;
}
