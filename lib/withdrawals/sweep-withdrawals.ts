import "server-only";

import { sql } from "drizzle-orm";
import { type Db, queryRows } from "@/lib/db/client";
import { QUEUED_DEDUPE_CONFLICT } from "@/lib/jobs/enqueue-job";
import { jobColumnsSql } from "@/lib/transactions/record-change";
import { broadcastJob } from "./withdrawal-jobs";

/** How old a `sending` claim without a txid must be before the sweep steps in. */
export const STUCK_CLAIM_SECONDS = 300;

/**
 * The reconciliation sweep, run by every job runner: a claim without a txid, or a withdrawal still
 * `processing`, older than `olderThanSeconds` gets its broadcast job queued again (a no-op while it
 * is queued). One idempotent statement. docs/decisions/payout-broadcast-claims.md.
 */
export async function sweepWithdrawalClaims(
  db: Db,
  input: { olderThanSeconds?: number } = {},
): Promise<number[]> {
  const olderThan = input.olderThanSeconds ?? STUCK_CLAIM_SECONDS;
  // Raw: Drizzle's insert().select() must select every jobs column in table order; this names five.
  const queued = await queryRows<{ id: string | number }>(
    db,
    sql`insert into jobs (queue, payload, run_at, dedupe_key, max_attempts)
        select ${jobColumnsSql(broadcastJob, sql`w.transaction_id`)}
        from withdrawals w
        join transactions t on t.id = w.transaction_id
        where w.txid is null and w.error is null
          and ((t.status = 'sending' and w.claimed_at < now() - make_interval(secs => ${olderThan}))
            or (t.status = 'processing' and t.updated_at < now() - make_interval(secs => ${olderThan})))
        ${QUEUED_DEDUPE_CONFLICT}
        returning payload->>'withdrawalId' as id`,
  );
  return queued.map((row) => Number(row.id));
}
