import { sql } from "drizzle-orm";
import { queryRows, type Tx } from "@/lib/db/client";
import { amountSql, journals, ledgerEntries } from "@/lib/db/schema";
import { formatAmount } from "@/lib/money";
import { type AccountRef, accountIds, accountKey } from "./accounts";

export type JournalEntry = { account: AccountRef; amount: bigint };

export type JournalInput = {
  merchantId: number | null;
  transactionId?: number | null;
  kind: string;
  memo?: string;
  entries: JournalEntry[];
};

/** A merchant balance would go below zero. Callers turn this into the error their caller understands. */
export class InsufficientFundsError extends Error {
  constructor(
    readonly currency: string,
    readonly required: bigint,
  ) {
    super(`insufficient ${currency} balance for ${formatAmount(required)}`);
    this.name = "InsufficientFundsError";
  }
}

export class UnbalancedJournalError extends Error {}

/**
 * Posts one balanced journal: the entries, and the balance of every account they touch, in the
 * caller's transaction (so the status change that causes them commits or rolls back with them).
 *
 * A merchant balance is changed with a conditional UPDATE (`... where balance + x >= 0`), which is
 * exact under any concurrency where read-then-write is not (DESIGN.md section 9); the CHECK
 * constraint on the table is the backstop. Accounts are updated in id order so two journals
 * touching the same accounts lock them in the same order and cannot deadlock. The journal and its
 * entries are written first and the balances last, so callers that post at the end of their
 * transaction hold the accounts' row locks for as short a time as possible: a merchant's balance
 * row is where all of its concurrent withdrawals queue.
 */
export async function postJournal(tx: Tx, input: JournalInput): Promise<{ journalId: number }> {
  assertBalanced(input.entries);

  const byAccount = new Map<string, { ref: AccountRef; amount: bigint; id?: number }>();
  for (const entry of input.entries) {
    const key = accountKey(entry.account);
    const existing = byAccount.get(key);
    if (existing) existing.amount += entry.amount;
    else byAccount.set(key, { ref: entry.account, amount: entry.amount });
  }
  const ids = await accountIds(
    tx,
    [...byAccount.values()].map((item) => item.ref),
  );
  for (const [key, item] of byAccount) item.id = ids.get(key);

  const [journal] = await tx
    .insert(journals)
    .values({
      merchantId: input.merchantId,
      transactionId: input.transactionId ?? null,
      kind: input.kind,
      memo: input.memo,
    })
    .returning({ id: journals.id });
  await tx.insert(ledgerEntries).values(
    input.entries.map((entry) => ({
      journalId: journal!.id,
      accountId: byAccount.get(accountKey(entry.account))!.id!,
      currency: entry.account.currency,
      amount: entry.amount,
    })),
  );
  // The balances last: their row locks are then held only until the commit that follows.
  const ordered = [...byAccount.values()].sort((a, b) => a.id! - b.id!);
  for (const item of ordered) {
    if (item.amount === 0n) continue;
    const delta = amountSql(item.amount);
    if (item.ref.merchantId !== null && item.amount < 0n) {
      const updated = await queryRows<{ id: number }>(
        tx,
        sql`update ledger_accounts set balance = balance + ${delta}
            where id = ${item.id} and balance + ${delta} >= 0 returning id`,
      );
      if (updated.length === 0) throw new InsufficientFundsError(item.ref.currency, -item.amount);
    } else {
      await tx.execute(sql`update ledger_accounts set balance = balance + ${delta} where id = ${item.id}`);
    }
  }

  return { journalId: journal!.id };
}

function assertBalanced(entries: JournalEntry[]): void {
  if (entries.length < 2) throw new UnbalancedJournalError("a journal needs at least two entries");
  const sums = new Map<string, bigint>();
  for (const { account, amount } of entries) {
    if (amount === 0n) throw new UnbalancedJournalError("a journal entry cannot be zero");
    sums.set(account.currency, (sums.get(account.currency) ?? 0n) + amount);
  }
  for (const [currency, sum] of sums) {
    if (sum !== 0n)
      throw new UnbalancedJournalError(`entries in ${currency} sum to ${formatAmount(sum)}, not zero`);
  }
}
