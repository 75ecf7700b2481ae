import "server-only";

import { createHash } from "node:crypto";
import type { AuditSource } from "@/lib/audit/record-audit-entry";
import type { Clock } from "@/lib/clock";
import type { Db } from "@/lib/db/client";
import { inTransaction } from "@/lib/db/transaction";
import { fieldError } from "@/lib/errors";
import { judgeWithdrawalLimits, overLimitText } from "@/lib/limits/judge-withdrawal-limits";
import { formatAmount } from "@/lib/money";
import type { Pricing } from "@/lib/rates/pricing";
import type { Sender } from "@/lib/schemas/common";
import type { FileCheck } from "@/lib/schemas/payout-batches";
import { type CheckedBatch, checkPayoutBatch, type RowError } from "./check-payout-batch";
import { columnOf, PayoutCsvError, parsePayoutCsv } from "./payout-csv";
import {
  contentHash,
  findPayoutBatch,
  PayoutBatchRowsError,
  repeatOf,
  type SentBatch,
  writePayoutBatch,
} from "./send-payout-batch";

/** A problem of the file as the dashboard shows it: its line, its column, in words. */
export type LineError = { line: number; column: string; message: string };

/** The reference a file's batch gets when the merchant gives none: the same file, the same reference. */
export function fileReference(bytes: Uint8Array): string {
  return `file-${createHash("sha256").update(bytes).digest("hex").slice(0, 16)}`;
}

type FileInput = {
  merchantId: number;
  file: Uint8Array;
  sender: Sender;
  pricing: Pricing;
  reference?: string;
  /** Who sends it, when the file is checked to be sent. */
  createdByUserId?: number;
  audit?: AuditSource;
};

/**
 * The file's lines and their problems. A line with a cell that cannot be read (a formula) is not
 * checked further: its other problems show once the cell is fixed, and the totals leave it out.
 */
async function checkFile(db: Db, input: FileInput) {
  const parsed = parsePayoutCsv(input.file);
  const unreadable = new Set(parsed.errors.map((e) => e.row));
  const checked = await checkPayoutBatch(db, {
    ...input,
    rows: parsed.rows.filter((r) => !unreadable.has(r.row)),
  });
  const errors = [...parsed.errors, ...checked.errors].sort((a, b) => a.row - b.row);
  const badLines = new Set(errors.map((e) => e.row));
  return { parsed, checked, errors, badLines };
}

const lineErrors = (errors: RowError[]): LineError[] =>
  errors.map((e) => ({ line: e.row, column: columnOf(e.field), message: e.message }));

/** Whether the valid payouts' total is over a limit, in words (judged as the send will judge it). */
async function approvalReason(db: Db, merchantId: number, checked: CheckedBatch): Promise<string | null> {
  if (checked.legs.length === 0) return null;
  const verdict = await inTransaction(db, (tx) =>
    judgeWithdrawalLimits(tx, { merchantId, legs: checked.legs }),
  );
  return verdict.isWithin ? null : overLimitText(verdict, "bulk payout");
}

/**
 * The dashboard's first step: reads the file and checks every payout in it, sending nothing. Says
 * what is wrong by line and column, and for the valid payouts what they take from each balance
 * (fees included), what is left, and whether the batch will wait for an approver. A file already
 * sent (the same bytes) is recognised as that batch.
 */
export async function checkPayoutFile(db: Db, input: FileInput): Promise<FileCheck> {
  const reference = input.reference ?? fileReference(input.file);
  const existing = await findPayoutBatch(db, input.merchantId, reference);
  if (existing)
    return {
      kind: "already_sent",
      batch_id: existing.id,
      reference,
      created_at: existing.createdAt.toISOString(),
    };
  let result: Awaited<ReturnType<typeof checkFile>>;
  try {
    result = await checkFile(db, input);
  } catch (error) {
    if (error instanceof PayoutCsvError) return { kind: "file_error", message: error.message };
    throw error;
  }
  const { parsed, checked, errors } = result;
  return {
    kind: "checked",
    reference,
    payouts: parsed.rows.length,
    valid: parsed.rows.length - result.badLines.size,
    errors: lineErrors(errors),
    totals: checked.totals.map((t) => ({
      currency: t.currency,
      count: t.count,
      amount: formatAmount(t.amount),
      fee: formatAmount(t.fee),
      total_debit: formatAmount(t.totalDebit),
      balance: formatAmount(t.balance),
      balance_after: formatAmount(t.balanceAfter),
    })),
    sent: checked.sent.map((s) => ({ currency: s.currency, amount: formatAmount(s.amount) })),
    approval: await approvalReason(db, input.merchantId, checked),
  };
}

/**
 * Sends a checked file as one bulk payout: all its payouts, or with `sendValidRows` only the lines
 * without problems (the merchant chose it, having seen the problems). Anything wrong that the
 * merchant did not choose to leave out refuses the whole file, its lines listed.
 */
export async function sendPayoutFile(
  db: Db,
  input: FileInput & {
    sendValidRows: boolean;
    approvalSeconds?: number;
    clock?: Clock;
  },
): Promise<SentBatch> {
  const reference = input.reference ?? fileReference(input.file);
  let result: Awaited<ReturnType<typeof checkFile>>;
  try {
    result = await checkFile(db, input);
  } catch (error) {
    if (error instanceof PayoutCsvError) throw fieldError({ file: error.message });
    throw error;
  }
  const existing = await findPayoutBatch(db, input.merchantId, reference);
  // The same file again (a second upload, a double click): its batch, sent once.
  if (existing) return repeatOf(existing, null);
  const { parsed, errors, badLines } = result;
  if (errors.length > 0 && !input.sendValidRows) throw linesError(errors);
  const rows = parsed.rows.filter((r) => !badLines.has(r.row));
  if (rows.length === 0)
    throw fieldError({ file: "No line of the file can be sent: fix the lines listed and upload it again." });
  try {
    // The lines checked above are written as they were checked: each line is priced once.
    return await writePayoutBatch(
      db,
      { ...input, reference },
      result.checked,
      contentHash(input.sender, rows),
    );
  } catch (error) {
    if (error instanceof PayoutBatchRowsError) throw linesError(error.rows);
    throw error;
  }
}

/** Problems of lines, for a refusal: the first few in words, and how many there are. */
function linesError(errors: RowError[]) {
  const shown = lineErrors(errors.slice(0, 5)).map((e) => `line ${e.line}, ${e.column}: ${e.message}`);
  const more = errors.length > 5 ? ` (and ${errors.length - 5} more)` : "";
  return fieldError({ file: `Nothing was sent. ${shown.join("; ")}${more}` });
}
