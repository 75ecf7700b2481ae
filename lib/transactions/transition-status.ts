import "server-only";

import { eq, sql } from "drizzle-orm";
import { queueCallback } from "@/lib/callbacks/queue-callback";
import type { Tx } from "@/lib/db/client";
import { transactions } from "@/lib/db/schema";
import { type ChangeJob, recordChange } from "./record-change";
import { canTransition, type StatusOf, type TransactionKind } from "./statuses";

export class IllegalTransitionError extends Error {
  constructor(
    readonly from: string,
    readonly to: string,
  ) {
    super(`a transaction cannot go from ${from} to ${to}`);
    this.name = "IllegalTransitionError";
  }
}

/**
 * Changes a transaction's status if the transition table allows it, under a row lock, and records
 * the change (recordChange: its event and the `jobs` that follow from it), in the caller's
 * transaction, with the merchant's callback for it queued there too. Returns the previous status.
 * Callers write everything the callback should report (amounts, reasons) before calling this.
 */
export async function transitionStatus<K extends TransactionKind>(
  tx: Tx,
  input: { transactionId: number; kind: K; to: StatusOf<K>; reason?: string; jobs?: readonly ChangeJob[] },
): Promise<StatusOf<K>> {
  const [row] = await tx
    .select({ status: transactions.status, merchantId: transactions.merchantId })
    .from(transactions)
    .where(eq(transactions.id, input.transactionId))
    .for("update");
  if (!row) throw new Error(`transaction ${input.transactionId} does not exist`);
  if (!canTransition(input.kind, row.status, input.to))
    throw new IllegalTransitionError(row.status, input.to);
  await tx
    .update(transactions)
    .set({ status: input.to, updatedAt: sql`now()` })
    .where(eq(transactions.id, input.transactionId));
  await recordChange(tx, input.transactionId, {
    merchantId: row.merchantId,
    from: row.status,
    to: input.to,
    reason: input.reason,
    jobs: input.jobs,
  });
  // The merchant hears of it in the same transaction: no change without its callback, no callback without its change.
  await queueCallback(tx, { transactionId: input.transactionId, status: input.to });
  return row.status as StatusOf<K>;
}

/** Records the first status of a new transaction in its timeline. */
export async function recordCreated(
  tx: Tx,
  input: { transactionId: number; merchantId: number; status: string; reason?: string },
): Promise<void> {
  await recordChange(tx, input.transactionId, {
    merchantId: input.merchantId,
    from: null,
    to: input.status,
    reason: input.reason,
  });
}
