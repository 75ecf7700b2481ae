import "server-only";

import { type SQL, sql } from "drizzle-orm";
import { queryRows, type Tx } from "@/lib/db/client";
import { PG, pgMessage, refusalDetail, refusalReason } from "@/lib/db/errors";
import { formatAmount, parseStoredAmount } from "@/lib/money";
import type { AccountRef } from "./accounts";

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
 * A credit would take a merchant balance past the amount cap (lib/money.ts MAX_AMOUNT): such a
 * balance could no longer be read or spent, so the posting is refused.
 */
export class BalanceCapError extends Error {
  constructor(readonly currency: string) {
    super(`a ${currency} balance cannot grow past the largest amount Kassa keeps`);
    this.name = "BalanceCapError";
  }
}

/**
 * A journal as kassa_post_journals() (drizzle/0010) reads it: amounts as exact decimal strings.
 * The one-statement writes merge what only SQL knows (the new transaction's id) into it there.
 */
export function journalJson(input: JournalInput): string {
  return JSON.stringify({
    merchant_id: input.merchantId,
    transaction_id: input.transactionId ?? null,
    kind: input.kind,
    memo: input.memo ?? null,
    entries: input.entries.map(({ account, amount }) => ({
      merchant_id: account.merchantId,
      kind: account.kind,
      currency: account.currency,
      amount: formatAmount(amount),
    })),
  });
}

/** The call of the one posting implementation, for a statement that posts `journals` (a jsonb array). */
export const postJournalsSql = (journals: SQL): SQL => sql`kassa_post_journals(${journals})`;

/**
 * Posts one balanced journal in the caller's transaction, in one round trip, through
 * kassa_post_journals() (drizzle/0010), which debits a merchant only when the balance covers it.
 * A refusal aborts the caller's transaction. docs/decisions/ledger-posting-in-sql.md.
 */
export async function postJournal(tx: Tx, input: JournalInput): Promise<{ journalId: number }> {
  try {
    // Raw: a call of the PL/pgSQL kassa_post_journals() (migration 0010), which the builder cannot express.
    const [row] = await queryRows<{ ids: (string | number | bigint)[] }>(
      tx,
      sql`select ${postJournalsSql(sql`jsonb_build_array(${journalJson(input)}::jsonb)`)} as ids`,
    );
    return { journalId: Number(row!.ids[0]) };
  } catch (error) {
    throw postingError(error) ?? error;
  }
}

/** The application error for a refusal of kassa_post_journals(), if `error` is one. */
export function postingError(error: unknown): Error | undefined {
  const unbalanced = pgMessage(error, PG.unbalancedJournal);
  if (unbalanced !== undefined) return new UnbalancedJournalError(unbalanced);
  const reason = refusalReason(error);
  if (reason === "over cap") return new BalanceCapError(refusalDetail(error) ?? "");
  if (reason !== "insufficient funds") return undefined;
  // DETAIL is '<currency> <amount needed>' (drizzle/0010).
  const [currency = "", required = "0"] = (refusalDetail(error) ?? "").split(" ");
  return new InsufficientFundsError(currency, parseStoredAmount(required));
}
