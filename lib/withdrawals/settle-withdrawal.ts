import "server-only";

import { eq, sql } from "drizzle-orm";
import type { BroadcastResult } from "@/lib/chain/adapter";
import type { Db, Tx } from "@/lib/db/client";
import { withdrawals } from "@/lib/db/schema";
import { inTransaction } from "@/lib/db/transaction";
import { merchantBalance, platformAccount } from "@/lib/ledger/accounts";
import { type JournalEntry, postJournal } from "@/lib/ledger/post-journal";
import { transitionStatus } from "@/lib/transactions/transition-status";
import { loadWithdrawal, type WithdrawalRecord } from "./load-withdrawal";

/** Returns the debited funds to the merchant with new entries, and ends the withdrawal. */
export async function failWithdrawal(
  tx: Tx,
  record: WithdrawalRecord,
  status: "error" | "rejected" | "declined",
  reason: string,
): Promise<void> {
  const { withdrawal: w } = record;
  await postJournal(tx, {
    merchantId: record.merchantId,
    transactionId: record.id,
    kind: "withdrawal_refund",
    memo: `Withdrawal ${record.id} ${status}: ${reason}`,
    entries: [
      { account: platformAccount("platform:clearing", w.sourceCurrency), amount: -w.totalDebit },
      { account: merchantBalance(record.merchantId, w.sourceCurrency), amount: w.totalDebit },
    ],
  });
  await tx.update(withdrawals).set({ error: reason }).where(eq(withdrawals.transactionId, record.id));
  await transitionStatus(tx, { transactionId: record.id, kind: "withdrawal", to: status, reason });
}

/** The entries once the payout has left: fees to the platform, the conversion, the chain. */
function settlementEntries(w: WithdrawalRecord["withdrawal"]): JournalEntry[] {
  const fees = w.withdrawalFee + w.networkFee;
  const entries: JournalEntry[] = [
    { account: platformAccount("platform:clearing", w.sourceCurrency), amount: -w.totalDebit },
  ];
  if (fees > 0n) entries.push({ account: platformAccount("platform:fees", w.sourceCurrency), amount: fees });
  if (w.sourceCurrency === w.targetCurrency) {
    entries.push({ account: platformAccount("platform:chain", w.sourceCurrency), amount: w.principal });
  } else {
    entries.push(
      { account: platformAccount("platform:exchange", w.sourceCurrency), amount: w.principal },
      { account: platformAccount("platform:exchange", w.targetCurrency), amount: -w.sentAmount },
      { account: platformAccount("platform:chain", w.targetCurrency), amount: w.sentAmount },
    );
  }
  return entries;
}

/**
 * Records the network's answer for a claimed withdrawal, in one transaction: the txid with the
 * settlement journal, or (the network refused it) `error` with the funds returned by new entries.
 * Only a claim still without an answer is settled, under its row lock, so however many attempts
 * race here the journal is written once. Answers whether this call recorded it.
 */
export async function recordBroadcast(
  db: Db,
  withdrawalId: number,
  result: BroadcastResult,
): Promise<boolean> {
  return inTransaction(db, async (tx) => {
    const current = await loadWithdrawal(tx, withdrawalId, true);
    if (current?.status !== "sending" || current.withdrawal.txid) return false;
    if (!result.isAccepted) {
      await failWithdrawal(tx, current, "error", result.reason);
      return true;
    }
    await postJournal(tx, {
      merchantId: current.merchantId,
      transactionId: current.id,
      kind: "withdrawal_sent",
      memo: `Withdrawal ${current.id}: ${result.txid}`,
      entries: settlementEntries(current.withdrawal),
    });
    await tx
      .update(withdrawals)
      .set({ txid: result.txid, chainTransactionId: result.chainTransactionId, broadcastAt: sql`now()` })
      .where(eq(withdrawals.transactionId, current.id));
    return true;
  });
}

/**
 * A payout that was sent and then reverted on chain (a token refused the recipient): the settlement
 * is undone by new entries (nothing left; the funds are back in clearing), then the withdrawal ends
 * `error` with the funds returned to the merchant and the callback queued, as when the network
 * refuses a payout outright. Only a `sending` withdrawal with a recorded txid can be reverted.
 */
export async function revertSentWithdrawal(tx: Tx, record: WithdrawalRecord, reason: string): Promise<void> {
  if (record.status !== "sending" || !record.withdrawal.txid)
    throw new Error(`withdrawal ${record.id} is ${record.status}: only a sent payout can be reverted`);
  await postJournal(tx, {
    merchantId: record.merchantId,
    transactionId: record.id,
    kind: "withdrawal_reverted",
    memo: `Withdrawal ${record.id}: ${record.withdrawal.txid} reverted`,
    entries: settlementEntries(record.withdrawal).map((e) => ({ ...e, amount: -e.amount })),
  });
  await failWithdrawal(tx, record, "error", reason);
}
