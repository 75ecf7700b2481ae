import "server-only";

import { and, asc, eq, type SQL } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { payoutBatches, transactions, withdrawals } from "@/lib/db/schema";
import { notFound } from "@/lib/errors";
import { formatAmount } from "@/lib/money";
import type { BatchPayoutView, BatchStatus, PayoutBatchView } from "@/lib/schemas/payout-batches";
import { wireStatus } from "@/lib/transactions/wire-status";

const FINAL = new Set(["confirmed", "declined", "error", "rejected"]);

/** A batch's status from its payouts': waiting while any waits for approval, done when all are final. */
export function batchStatusOf(statuses: readonly string[]): BatchStatus {
  if (statuses.some((s) => s === "pending")) return "awaiting_approval";
  if (statuses.length > 0 && statuses.every((s) => s === "declined")) return "declined";
  return statuses.every((s) => FINAL.has(s)) ? "completed" : "processing";
}

/** The merchant's bulk payout by id or by reference, with every payout; another merchant's is not found. */
export async function readPayoutBatch(
  db: Executor,
  input: { merchantId: number } & ({ batchId: number } | { reference: string }),
): Promise<PayoutBatchView> {
  const which: SQL =
    "batchId" in input ? eq(payoutBatches.id, input.batchId) : eq(payoutBatches.reference, input.reference);
  const [batch] = await db
    .select()
    .from(payoutBatches)
    .where(and(eq(payoutBatches.merchantId, input.merchantId), which));
  if (!batch) throw notFound("No such bulk payout.");
  const rows = await db
    .select({ w: withdrawals, status: transactions.status })
    .from(withdrawals)
    .innerJoin(transactions, eq(transactions.id, withdrawals.transactionId))
    .where(eq(withdrawals.batchId, batch.id))
    .orderBy(asc(withdrawals.batchRow));
  const totals = new Map<string, { amount: bigint; fee: bigint; total: bigint }>();
  for (const { w } of rows) {
    const total = totals.get(w.sourceCurrency) ?? { amount: 0n, fee: 0n, total: 0n };
    total.amount += w.principal;
    total.fee += w.withdrawalFee + w.networkFee;
    total.total += w.totalDebit;
    totals.set(w.sourceCurrency, total);
  }
  return {
    id: batch.id,
    reference: batch.reference,
    status: batchStatusOf(rows.map((r) => r.status)),
    created_at: Math.floor(batch.createdAt.getTime() / 1000),
    totals: [...totals]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([currency, t]) => ({
        currency,
        amount: formatAmount(t.amount),
        fee: formatAmount(t.fee),
        total_debit: formatAmount(t.total),
      })),
    payouts: rows.map(({ w, status }) => ({
      row: w.batchRow!,
      id: w.transactionId,
      foreign_id: w.foreignIdRaw,
      type: w.kind as BatchPayoutView["type"],
      status: wireStatus(status),
      internal_status: status,
      amount: formatAmount(w.principal),
      fee: formatAmount(w.withdrawalFee + w.networkFee),
      sender_currency: w.sourceCurrency,
      receiver_currency: w.targetCurrency,
      receiver_amount: formatAmount(w.sentAmount),
      address: w.address,
      tag: w.tag,
      txid: w.txid,
      error: w.error,
    })),
    created_by_user_id: batch.createdByUserId,
  };
}
