import "server-only";

import { sql } from "drizzle-orm";
import type { BroadcastRequest, PayoutBatching } from "@/lib/chain/adapter";
import type { Clock } from "@/lib/clock";
import { type Db, queryRows } from "@/lib/db/client";
import { DeferJobError } from "@/lib/jobs/defer-job";
import { claimWithdrawal } from "./claim-withdrawal";
import { loadWithdrawal, type WithdrawalRecord } from "./load-withdrawal";
import { PayoutWaitingError } from "./payout-waiting-error";
import { recordBroadcast } from "./settle-withdrawal";
import { withdrawalReference } from "./withdrawal-reference";

/** The most payouts one transaction carries; the rest leave in the next batch, at once. */
export const MAX_BATCH = 250;

const requestOf = (record: WithdrawalRecord): BroadcastRequest => ({
  reference: withdrawalReference(record.id),
  currency: record.withdrawal.targetCurrency,
  address: record.withdrawal.address,
  tag: record.withdrawal.tag,
  amount: record.withdrawal.sentAmount,
});

/**
 * The payouts of `currency` ready to leave (`processing`: accepted or approved, not claimed), oldest
 * first, with how long ago the oldest became ready (transactions.updated_at is set by that change).
 */
async function readyPayouts(db: Db, currency: string, clock: Clock) {
  const rows = await queryRows<{ id: string | number; waited_ms: string }>(
    db,
    sql`select w.transaction_id as id,
               (extract(epoch from (${clock.now().toISOString()}::timestamptz - t.updated_at)) * 1000)::bigint::text as waited_ms
        from withdrawals w join transactions t on t.id = w.transaction_id
        where t.status = 'processing' and w.target_currency = ${currency}
        order by t.updated_at, t.id
        limit ${MAX_BATCH}`,
  );
  return { ids: rows.map((r) => Number(r.id)), oldestWaitedMs: rows.length ? Number(rows[0]!.waited_ms) : 0 };
}

/**
 * A batching currency's broadcast job (KASSA_PAYOUT_BATCH_SECONDS): deferred until the oldest ready
 * payout has waited the window, then each ready payout is claimed on its own and the claimed ones
 * leave in one call; a crash in between leaves claims their own jobs resume one by one.
 * docs/chains.md, "Bitcoin and Litecoin payouts"; docs/decisions/payout-broadcast-claims.md.
 */
export async function broadcastBatch(
  db: Db,
  input: { currency: string; batching: PayoutBatching; clock: Clock },
): Promise<void> {
  const { batching } = input;
  const ready = await readyPayouts(db, input.currency, input.clock);
  if (ready.ids.length === 0) return;
  const windowMs = batching.seconds * 1000;
  if (ready.oldestWaitedMs < windowMs)
    throw new DeferJobError(
      Math.ceil((windowMs - ready.oldestWaitedMs) / 1000),
      `waits for the ${input.currency} payout batch`,
    );
  const records = await Promise.all(ready.ids.map((id) => loadWithdrawal(db, id)));
  const reason = await batching.checkFunds(
    db,
    records.filter((r) => r?.status === "processing").map((r) => requestOf(r!)),
  );
  if (reason) throw new PayoutWaitingError(reason);
  const claimed: WithdrawalRecord[] = [];
  for (const id of ready.ids) {
    const claim = await claimWithdrawal(db, id);
    if (claim && !claim.isResumed) claimed.push(claim.record);
  }
  if (claimed.length === 0) return;
  const results = await batching.broadcastMany(db, claimed.map(requestOf));
  for (const record of claimed) {
    const result = results.get(withdrawalReference(record.id));
    if (result) await recordBroadcast(db, record.id, result);
  }
}
