import "server-only";

import { desc, eq, sql } from "drizzle-orm";
import { type Executor, queryRows } from "@/lib/db/client";
import { payoutBatches } from "@/lib/db/schema";
import { formatAmount, parseStoredAmount } from "@/lib/money";
import type { PayoutBatchSummary } from "@/lib/schemas/payout-batches";
import { batchStatusOf } from "./read-payout-batch";

/** The merchant's bulk payouts, newest first (at most 100), each summed up. */
export async function listPayoutBatches(
  db: Executor,
  input: { merchantId: number; viewerUserId: number },
): Promise<PayoutBatchSummary[]> {
  const batches = await db
    .select()
    .from(payoutBatches)
    .where(eq(payoutBatches.merchantId, input.merchantId))
    .orderBy(desc(payoutBatches.id))
    .limit(100);
  if (batches.length === 0) return [];
  const ids = sql.join(
    batches.map((b) => sql`${b.id}`),
    sql`, `,
  );
  const counts = await queryRows<{ batch_id: string | number; status: string; n: string | number }>(
    db,
    sql`select w.batch_id, t.status, count(*) as n
        from withdrawals w join transactions t on t.id = w.transaction_id
        where w.batch_id in (${ids}) group by w.batch_id, t.status`,
  );
  const sums = await queryRows<{
    batch_id: string | number;
    currency: string;
    total: string;
    expires_at: string | null;
  }>(
    db,
    sql`select w.batch_id, w.source_currency as currency, sum(w.total_debit)::text as total,
               min(w.approval_expires_at)::text as expires_at
        from withdrawals w where w.batch_id in (${ids}) group by w.batch_id, w.source_currency
        order by w.source_currency`,
  );
  const creators = await queryRows<{ id: string | number; email: string }>(
    db,
    sql`select u.id, u.email from users u
        where u.id in (select created_by_user_id from payout_batches where id in (${ids}))`,
  );
  const emailOf = new Map(creators.map((u) => [Number(u.id), u.email]));
  return batches.map((batch) => {
    const byStatus: Record<string, number> = {};
    for (const c of counts) if (Number(c.batch_id) === batch.id) byStatus[c.status] = Number(c.n);
    const statuses = Object.entries(byStatus).flatMap(([status, n]) => Array<string>(n).fill(status));
    const mine = sums.filter((s) => Number(s.batch_id) === batch.id);
    const expiresAt = mine.find((s) => s.expires_at !== null)?.expires_at ?? null;
    return {
      id: batch.id,
      reference: batch.reference,
      created_at: batch.createdAt.toISOString(),
      status: batchStatusOf(statuses),
      payouts: batch.rowCount,
      by_status: byStatus,
      totals: mine.map((s) => ({
        currency: s.currency,
        total_debit: formatAmount(parseStoredAmount(s.total)),
      })),
      created_by: batch.createdByUserId === null ? null : (emailOf.get(batch.createdByUserId) ?? null),
      can_decide: batch.createdByUserId !== input.viewerUserId,
      approval_expires_at: expiresAt === null ? null : new Date(expiresAt).toISOString(),
    };
  });
}
