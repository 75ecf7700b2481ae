import "server-only";

import { sql } from "drizzle-orm";
import { type Clock, sqlNow } from "@/lib/clock";
import { type Executor, queryRows } from "@/lib/db/client";
import { parseStoredAmount } from "@/lib/money";
import { findWithdrawalLimits } from "./find-withdrawal-limits";

/**
 * Whether a new withdrawal of `amount` (in the currency of the balance it leaves, fees excluded)
 * must wait for an approver: over the per-withdrawal limit, or over the per-day limit together with
 * what already left that UTC day without waiting or after approval (pending, declined and failed
 * ones do not count). Call it inside the transaction that creates the withdrawal: it locks the
 * limit row, so concurrent withdrawals of one merchant and currency are judged one after the other,
 * each seeing the ones committed before it, and two together can never slip under the daily limit.
 */
export async function judgeWithdrawalLimits(
  tx: Executor,
  input: { merchantId: number; currency: string; amount: bigint; clock?: Clock },
): Promise<"over_limit" | "within"> {
  const limits = await findWithdrawalLimits(tx, { ...input, lock: true });
  if (!limits) return "within";
  if (input.amount > limits.perWithdrawal) return "over_limit";
  if (limits.perDay === null) return "within";
  const now = sqlNow(input.clock);
  const [row] = await queryRows<{ total: string }>(
    tx,
    sql`select coalesce(sum(w.principal), 0)::text as total
        from withdrawals w join transactions t on t.id = w.transaction_id
        where w.merchant_id = ${input.merchantId} and w.source_currency = ${input.currency}
          and w.created_at >= date_trunc('day', ${now} at time zone 'UTC') at time zone 'UTC'
          and t.status not in ('pending', 'declined', 'error', 'rejected')`,
  );
  return parseStoredAmount(row!.total) + input.amount > limits.perDay ? "over_limit" : "within";
}
