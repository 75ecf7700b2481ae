import "server-only";

import { createHash } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { AuditSource } from "@/lib/audit/record-audit-entry";
import type { Clock } from "@/lib/clock";
import { type Db, queryRows } from "@/lib/db/client";
import { refusalReason } from "@/lib/db/errors";
import { payoutBatches } from "@/lib/db/schema";
import { inTransaction } from "@/lib/db/transaction";
import { fieldError, KassaError } from "@/lib/errors";
import { judgeWithdrawalLimits } from "@/lib/limits/judge-withdrawal-limits";
import { formatAmountShort } from "@/lib/money";
import type { Pricing } from "@/lib/rates/pricing";
import { withoutNullOptionals } from "@/lib/schemas/absent-nulls";
import type { Sender } from "@/lib/schemas/common";
import { payoutRow } from "@/lib/schemas/payout-batches";
import {
  approvalDeadline,
  awaitApproval,
  type PreparedWithdrawal,
  withdrawalWriteError,
  writeWithdrawal,
} from "@/lib/withdrawals/create-withdrawal";
import { type BatchRow, type CheckedBatch, checkPayoutBatch, type RowError } from "./check-payout-batch";

/**
 * A bulk payout refused because of its rows (nothing was sent): every problem by row and field.
 * Its `fields` are the API's shape, `payouts.<index from 0>.<field>`; the dashboard shows `rows`.
 */
export class PayoutBatchRowsError extends KassaError {
  constructor(readonly rows: RowError[]) {
    super(
      "validation_failed",
      "The given data was invalid.",
      Object.fromEntries(rows.map((e) => [`payouts.${e.row - 1}.${e.field}`, e.message])),
    );
  }
}

/** `payouts`: how many payouts the batch holds (a repeat's first batch's). */
export type SentBatch = { batchId: number; isRepeat: boolean; needsApproval: boolean; payouts: number };

/**
 * What makes two requests the same batch: the sender and each row as its schema reads it (so
 * `"1.5"` and `1.5`, or a null optional and an absent one, are the same payout).
 */
export function contentHash(sender: Sender, rows: readonly BatchRow[]): string {
  const canonical = rows.map(({ row, payout }) => {
    const parsed = payoutRow.safeParse(withoutNullOptionals(payoutRow, payout));
    return { row, payout: parsed.success ? parsed.data : payout };
  });
  const text = JSON.stringify({ sender, rows: canonical }, (_key, value) =>
    typeof value === "bigint" ? value.toString() : value,
  );
  return createHash("sha256").update(text).digest("hex");
}

/** The merchant's batch with this reference, if any. */
export async function findPayoutBatch(db: Db, merchantId: number, reference: string) {
  const [batch] = await db
    .select({
      id: payoutBatches.id,
      contentHash: payoutBatches.contentHash,
      needsApproval: payoutBatches.needsApproval,
      rowCount: payoutBatches.rowCount,
      createdAt: payoutBatches.createdAt,
    })
    .from(payoutBatches)
    .where(and(eq(payoutBatches.merchantId, merchantId), eq(payoutBatches.reference, reference)));
  return batch;
}

type FoundBatch = NonNullable<Awaited<ReturnType<typeof findPayoutBatch>>>;

/** A batch found again by its reference: the same batch when the content is the same, else a mistake. */
export function repeatOf(batch: FoundBatch, hash: string | null): SentBatch {
  if (hash !== null && batch.contentHash !== hash)
    throw fieldError({
      reference: `This reference was already used for bulk payout ${batch.id}, with other payouts. Choose another reference.`,
    });
  return { batchId: batch.id, isRepeat: true, needsApproval: batch.needsApproval, payouts: batch.rowCount };
}

/** Balances that cannot pay the batch, in words: nothing is sent. */
function assertCovered(checked: CheckedBatch): void {
  const short = checked.totals.filter((total) => total.balanceAfter < 0n);
  if (short.length === 0) return;
  throw fieldError({
    payouts: short
      .map(
        (t) =>
          `Insufficient funds: these payouts need ${formatAmountShort(t.totalDebit)} ${t.currency} from your balance, ` +
          `fees included, and it holds ${formatAmountShort(t.balance)} ${t.currency}.`,
      )
      .join(" "),
  });
}

/**
 * Sends a bulk payout, all or nothing (docs/decisions/bulk-payouts.md): any row's problem refuses the batch,
 * every problem listed. One transaction records it, judges limits on its total and writes each payout as a
 * single withdrawal is written; over a limit all wait `pending` for one approval (decidePayoutBatch). The
 * same reference again answers the first batch if its payouts are the same, and is refused if they differ.
 */
export async function sendPayoutBatch(
  db: Db,
  input: BatchWriter & { sender: Sender; rows: readonly BatchRow[]; pricing: Pricing },
): Promise<SentBatch> {
  const hash = contentHash(input.sender, input.rows);
  const existing = await findPayoutBatch(db, input.merchantId, input.reference);
  if (existing) return repeatOf(existing, hash);
  const checked = await checkPayoutBatch(db, input);
  if (checked.errors.length > 0) {
    // A request with this reference may have committed since the look-up above: its payouts' foreign
    // ids then read as taken, and the answer is that batch, not those errors.
    const committed = await findPayoutBatch(db, input.merchantId, input.reference);
    if (committed) return repeatOf(committed, hash);
    throw new PayoutBatchRowsError(checked.errors);
  }
  return writePayoutBatch(db, input, checked, hash);
}

/** Who sends a batch, under which reference, and the approval rules it is judged by. */
type BatchWriter = {
  merchantId: number;
  reference: string;
  createdByUserId?: number;
  apiKeyId?: number;
  audit?: AuditSource;
  approvalSeconds?: number;
  clock?: Clock;
};

/**
 * Writes the valid payouts of a checked batch (checkPayoutBatch, given the writer's
 * `createdByUserId`, `apiKeyId` and `audit`), as sendPayoutBatch describes, under `hash`, what the
 * same batch sent again must match. A batch with this reference committed meanwhile is answered.
 */
export async function writePayoutBatch(
  db: Db,
  input: BatchWriter,
  checked: CheckedBatch,
  hash: string,
): Promise<SentBatch> {
  const rows = checked.payouts.map((p) => p.row);
  const prepared = checked.payouts.map((p) => p.prepared);
  assertCovered(checked);

  const written = await inTransaction(db, async (tx) => {
    const verdict = await judgeWithdrawalLimits(tx, {
      merchantId: input.merchantId,
      legs: checked.legs,
      clock: input.clock,
    });
    const needsApproval = !verdict.isWithin;
    const [batch] = await queryRows<{ id: string | number }>(
      tx,
      sql`insert into payout_batches (merchant_id, reference, content_hash, row_count, needs_approval, created_by_user_id, api_key_id)
          values (${input.merchantId}, ${input.reference}, ${hash}, ${prepared.length}, ${needsApproval},
                  ${input.createdByUserId ?? null}::bigint, ${input.apiKeyId ?? null}::bigint)
          on conflict (merchant_id, reference) do nothing
          returning id`,
    );
    // Another request with this reference committed first: answered below, from its batch.
    if (!batch) return null;
    const batchId = Number(batch.id);
    const expiresAt = needsApproval ? approvalDeadline(input) : undefined;
    for (const [index, payout] of prepared.entries()) {
      const row = rows[index]!;
      try {
        const id = await writeWithdrawal(tx, payout, { expiresAt, batch: { id: batchId, row } });
        if (expiresAt) await awaitApproval(tx, { withdrawalId: id });
      } catch (error) {
        throw rowWriteError(error, payout, row);
      }
    }
    return { batchId, isRepeat: false, needsApproval, payouts: prepared.length };
  });
  if (written) return written;
  const winner = await findPayoutBatch(db, input.merchantId, input.reference);
  if (!winner) throw new Error(`bulk payout ${input.reference} vanished after its reference conflicted`);
  return repeatOf(winner, hash);
}

/**
 * A payout the database refused while the batch was written: the whole transaction is rolled back.
 * Too little balance (it changed since the check) is said for the batch; anything else for the row.
 */
function rowWriteError(error: unknown, payout: PreparedWithdrawal, row: number): unknown {
  if (refusalReason(error) === "insufficient funds")
    return fieldError({
      payouts: `Insufficient funds: your ${payout.source.code} balance changed while this bulk payout was sent and no longer covers it. Nothing was sent.`,
    });
  const mapped = withdrawalWriteError(error, payout);
  if (!(mapped instanceof KassaError) || !mapped.fields) return mapped;
  const [field, message] = Object.entries(mapped.fields)[0]!;
  return new PayoutBatchRowsError([{ row, field, message }]);
}
