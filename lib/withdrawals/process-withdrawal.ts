import "server-only";

import { and, eq, gte, isNotNull, sql } from "drizzle-orm";
import type { BroadcastResult, ChainAdapter } from "@/lib/chain/adapter";
import { type Clock, systemClock } from "@/lib/clock";
import { getCurrency } from "@/lib/currencies/registry";
import { type Db, queryRows } from "@/lib/db/client";
import { chainTips, chainTransactions, transactions, withdrawals } from "@/lib/db/schema";
import { inTransaction } from "@/lib/db/transaction";
import { fieldError, notFound } from "@/lib/errors";
import { DeferJobError } from "@/lib/jobs/defer-job";
import { runEach } from "@/lib/jobs/run-each";
import { transitionStatus } from "@/lib/transactions/transition-status";
import { broadcastBatch } from "./broadcast-batch";
import { claimWithdrawal } from "./claim-withdrawal";
import { loadWithdrawal, type WithdrawalRecord } from "./load-withdrawal";
import { PayoutWaitingError } from "./payout-waiting-error";
import { failWithdrawal, recordBroadcast } from "./settle-withdrawal";
import { STUCK_CLAIM_SECONDS } from "./sweep-withdrawals";
import { withdrawalReference } from "./withdrawal-reference";

/**
 * The broadcast job: a withdrawal is either sent or refunded, never both. The `sending` claim
 * commits, the network call runs outside any transaction, then the txid or the refund commits; a
 * claim left without an answer asks the adapter first. docs/decisions/payout-broadcast-claims.md.
 */
export async function broadcastWithdrawal(
  db: Db,
  input: { withdrawalId: number; adapter: ChainAdapter; signal?: AbortSignal; clock?: Clock },
): Promise<void> {
  const ready = await loadWithdrawal(db, input.withdrawalId);
  const currency = ready?.withdrawal.targetCurrency;
  const batching = currency ? input.adapter.batchOf?.(currency) : undefined;
  if (batching && batching.seconds > 0 && ready?.status === "sending" && !ready.withdrawal.txid) {
    // Claimed by a batch that is sending it now: resumed alone only once that claim is stuck.
    const claimedFor = await claimAgeSeconds(db, ready.id);
    if (claimedFor < STUCK_CLAIM_SECONDS)
      throw new DeferJobError(STUCK_CLAIM_SECONDS - claimedFor, `sent by a ${currency} payout batch`);
  }
  if (batching && batching.seconds > 0 && ready?.status === "processing") {
    await broadcastBatch(db, { currency: currency!, batching, clock: input.clock ?? systemClock });
    // Left out of the batch (over its size): this job runs again at once, for the next batch.
    if ((await loadWithdrawal(db, input.withdrawalId))?.status === "processing")
      throw new DeferJobError(1, `waits for the next ${currency} payout batch`);
    return;
  }
  await waitForFunds(db, input);
  const claim = await claimWithdrawal(db, input.withdrawalId);
  if (!claim) return;
  const { record, isResumed } = claim;
  const { withdrawal: w } = record;
  const reference = withdrawalReference(record.id);
  let result: BroadcastResult | undefined;
  if (isResumed) {
    const found = await input.adapter.lookUpBroadcast(db, { reference, currency: w.targetCurrency });
    if (found.isBroadcast) {
      result = { isAccepted: true, txid: found.txid, chainTransactionId: found.chainTransactionId };
    }
  }
  // The job's lease was lost: another worker runs this job now and will send it.
  input.signal?.throwIfAborted();
  result ??= await input.adapter.broadcast(
    db,
    { reference, currency: w.targetCurrency, address: w.address, tag: w.tag, amount: w.sentAmount },
    { signal: input.signal },
  );
  await recordBroadcast(db, record.id, result);
}

/** How long ago the withdrawal was claimed for sending, in whole seconds. */
async function claimAgeSeconds(db: Db, withdrawalId: number): Promise<number> {
  const [row] = await queryRows<{ seconds: string | number }>(
    db,
    sql`select floor(extract(epoch from now() - claimed_at))::int as seconds from withdrawals where transaction_id = ${withdrawalId}`,
  );
  return Number(row?.seconds ?? STUCK_CLAIM_SECONDS);
}

/**
 * Asks the adapter, before the claim, whether the payout can go now. When it cannot, the job fails
 * and is retried later, and the withdrawal stays `processing` (an operator may still reject it);
 * the claim sweep queues it again if its job runs out of attempts.
 */
async function waitForFunds(db: Db, input: { withdrawalId: number; adapter: ChainAdapter }): Promise<void> {
  if (!input.adapter.checkFunds) return;
  const record = await loadWithdrawal(db, input.withdrawalId);
  if (record?.status !== "processing") return;
  const { withdrawal: w } = record;
  const reason = await input.adapter.checkFunds(db, {
    reference: withdrawalReference(record.id),
    currency: w.targetCurrency,
    address: w.address,
    tag: w.tag,
    amount: w.sentAmount,
  });
  if (reason) throw new PayoutWaitingError(reason);
}

/** Why an operator may not reject this withdrawal, in words; undefined when they may. */
function rejectionRefusal(record: WithdrawalRecord): string | undefined {
  if (record.status === "processing") return undefined;
  const why: Record<string, string> = {
    sending: record.withdrawal.txid ? "it has already been sent" : "it is already being sent to the network",
    confirmed: "it has already been sent",
    error: "the network refused it and its funds were returned",
    rejected: "it was already rejected",
  };
  return `The withdrawal cannot be rejected: ${why[record.status] ?? `it is ${record.status}`}.`;
}

/**
 * An operator stops a withdrawal that has not been handed to the network; the funds go back to the
 * balance. Refused (400) once the broadcast job has claimed it, even before a txid is known.
 */
export async function rejectWithdrawal(
  db: Db,
  input: { withdrawalId: number; reason: string },
): Promise<WithdrawalRecord> {
  return inTransaction(db, async (tx) => {
    const record = await loadWithdrawal(tx, input.withdrawalId, true);
    if (!record) throw notFound("No such withdrawal.");
    const refusal = rejectionRefusal(record);
    if (refusal) throw fieldError({ id: refusal });
    await failWithdrawal(tx, record, "rejected", input.reason);
    return (await loadWithdrawal(tx, record.id))!;
  });
}

/**
 * Withdrawals of a currency whose transaction reached the required confirmations become
 * `confirmed`. Each is tried even when another fails; the failures are thrown together at the end.
 */
export async function confirmWithdrawals(db: Db, currency: string): Promise<number> {
  const required = getCurrency(currency).confirmations;
  const due = await db
    .select({ id: withdrawals.transactionId })
    .from(withdrawals)
    .innerJoin(transactions, eq(transactions.id, withdrawals.transactionId))
    .innerJoin(chainTransactions, eq(chainTransactions.id, withdrawals.chainTransactionId))
    .innerJoin(chainTips, eq(chainTips.currency, chainTransactions.currency))
    .where(
      and(
        eq(withdrawals.targetCurrency, currency),
        eq(transactions.status, "sending"),
        isNotNull(withdrawals.txid),
        isNotNull(chainTransactions.blockHeight),
        gte(sql`${chainTips.height} - ${chainTransactions.blockHeight} + 1`, required),
      ),
    );
  let confirmed = 0;
  await runEach(
    due,
    async ({ id }) => {
      const changed = await inTransaction(db, async (tx) => {
        const record = await loadWithdrawal(tx, Number(id), true);
        if (record?.status !== "sending" || !record.withdrawal.txid) return false;
        await transitionStatus(tx, {
          transactionId: record.id,
          kind: "withdrawal",
          to: "confirmed",
          reason: "confirmed",
        });
        return true;
      });
      if (changed) confirmed++;
    },
    ({ id }) => `withdrawal ${id}`,
  );
  return confirmed;
}
