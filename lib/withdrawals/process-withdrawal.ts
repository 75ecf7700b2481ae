import { eq, sql } from "drizzle-orm";
import type { ChainAdapter } from "@/lib/chain/adapter";
import { getCurrency } from "@/lib/currencies/registry";
import { type Db, queryRows, type Tx } from "@/lib/db/client";
import { withdrawals } from "@/lib/db/schema";
import { inTransaction } from "@/lib/db/transaction";
import { fieldError, notFound } from "@/lib/errors";
import { merchantBalance, platformAccount } from "@/lib/ledger/accounts";
import { type JournalEntry, postJournal } from "@/lib/ledger/post-journal";
import { transitionStatus } from "@/lib/transactions/transition-status";
import { loadWithdrawal, type WithdrawalRecord } from "./load-withdrawal";

/** Returns the debited funds to the merchant with new entries, and ends the withdrawal. */
async function failWithdrawal(
  tx: Tx,
  record: WithdrawalRecord,
  status: "error" | "rejected",
  reason: string,
) {
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
 * The broadcast job. The network call happens outside any transaction (it may be slow); the
 * adapter's broadcast is idempotent per withdrawal, so a job retried after a crash cannot pay twice.
 * A refusal returns the funds and ends the withdrawal as `error` with the network's reason.
 */
export async function broadcastWithdrawal(
  db: Db,
  input: { withdrawalId: number; adapter: ChainAdapter },
): Promise<void> {
  const record = await loadWithdrawal(db, input.withdrawalId);
  if (record?.status !== "processing" || record.withdrawal.txid) return;
  const { withdrawal: w } = record;
  const result = await input.adapter.broadcast(db, {
    reference: `withdrawal:${record.id}`,
    currency: w.targetCurrency,
    address: w.address,
    tag: w.tag,
    amount: w.sentAmount,
  });
  await inTransaction(db, async (tx) => {
    const current = await loadWithdrawal(tx, record.id, true);
    if (current?.status !== "processing" || current.withdrawal.txid) return;
    if (!result.isAccepted) return failWithdrawal(tx, current, "error", result.reason);
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
  });
}

/** An operator stops a withdrawal that has not left yet; the funds go back to the balance. */
export async function rejectWithdrawal(
  db: Db,
  input: { withdrawalId: number; reason: string },
): Promise<WithdrawalRecord> {
  return inTransaction(db, async (tx) => {
    const record = await loadWithdrawal(tx, input.withdrawalId, true);
    if (!record) throw notFound("No such withdrawal.");
    if (record.status !== "processing" || record.withdrawal.txid) {
      throw fieldError({
        id: `The withdrawal cannot be rejected: it is ${record.withdrawal.txid ? "already sent" : record.status}.`,
      });
    }
    await failWithdrawal(tx, record, "rejected", input.reason);
    return (await loadWithdrawal(tx, record.id))!;
  });
}

/** Withdrawals of a currency whose transaction reached the required confirmations become `confirmed`. */
export async function confirmWithdrawals(db: Db, currency: string): Promise<number> {
  const required = getCurrency(currency).confirmations;
  const due = await queryRows<{ id: string | number }>(
    db,
    sql`select w.transaction_id as id
        from withdrawals w
        join transactions t on t.id = w.transaction_id
        join chain_transactions c on c.id = w.chain_transaction_id
        join chain_tips tip on tip.currency = c.currency
        where w.target_currency = ${currency} and t.status = 'processing' and c.block_height is not null
          and tip.height - c.block_height + 1 >= ${required}`,
  );
  let confirmed = 0;
  for (const { id } of due) {
    const changed = await inTransaction(db, async (tx) => {
      const record = await loadWithdrawal(tx, Number(id), true);
      if (record?.status !== "processing") return false;
      await transitionStatus(tx, {
        transactionId: record.id,
        kind: "withdrawal",
        to: "confirmed",
        reason: "confirmed",
      });
      return true;
    });
    if (changed) confirmed++;
  }
  return confirmed;
}
