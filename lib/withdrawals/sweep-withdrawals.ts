import "server-only";

import { sql } from "drizzle-orm";
import { type Db, queryRows } from "@/lib/db/client";
import { JOB_MAX_ATTEMPTS, QUEUED_DEDUPE_CONFLICT } from "@/lib/jobs/enqueue-job";
import { WITHDRAWAL_BROADCAST_QUEUE } from "@/lib/jobs/queues";
import { broadcastDedupeKeySql } from "./create-withdrawal";

/** How old a `sending` claim without a txid must be before the sweep steps in. */
export const STUCK_CLAIM_SECONDS = 300;

/**
 * The reconciliation sweep, run periodically by every job runner: each claim (`sending`) still
 * without a txid, older than `olderThanSeconds`, gets its broadcast job queued again, and that job
 * settles it (lib/withdrawals/process-withdrawal.ts: the adapter is asked whether the reference was
 * broadcast before anything is sent again). Normally the withdrawal's own job is still queued (it
 * is retried after a crash or a timeout), and then the dedupe key makes this a no-op; the sweep
 * matters once that job has run out of attempts or was purged. A withdrawal still `processing`
 * after as long (waiting for a hot wallet to be funded, its job out of attempts) is queued again
 * the same way. One statement, idempotent, so any
 * number of workers may run it at once. Answers the withdrawals whose job it queued.
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
        select ${WITHDRAWAL_BROADCAST_QUEUE}, jsonb_build_object('withdrawalId', w.transaction_id), now(),
               ${broadcastDedupeKeySql(sql`w.transaction_id`)}, ${JOB_MAX_ATTEMPTS}
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
