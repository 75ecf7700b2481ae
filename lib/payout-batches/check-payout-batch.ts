import "server-only";

import { and, eq, inArray } from "drizzle-orm";
import type { AuditSource } from "@/lib/audit/record-audit-entry";
import type { Executor } from "@/lib/db/client";
import { transactions } from "@/lib/db/schema";
import { KassaError } from "@/lib/errors";
import { readBalance } from "@/lib/ledger/read-balance";
import { type MovedAmount, withdrawalLegs } from "@/lib/limits/judge-withdrawal-limits";
import type { Pricing } from "@/lib/rates/pricing";
import { withoutNullOptionals } from "@/lib/schemas/absent-nulls";
import type { Sender } from "@/lib/schemas/common";
import { toFieldErrors } from "@/lib/schemas/messages";
import { type PayoutRow, payoutRow } from "@/lib/schemas/payout-batches";
import { foreignIdText } from "@/lib/schemas/withdrawals";
import {
  type CreateWithdrawalInput,
  type PreparedWithdrawal,
  prepareWithdrawal,
} from "@/lib/withdrawals/create-withdrawal";
import { withdrawalInput } from "@/lib/withdrawals/from-request";

/** A payout as sent (checked here), with its row: its position in the request or the file, from 1. */
export type BatchRow = { row: number; payout: unknown };

/** One problem of one payout: its position (from 1), the request field it concerns, in words. */
export type RowError = { row: number; field: string; message: string };

/** What the payouts of one source currency take from its balance, and what is left after. */
export type BatchTotal = {
  currency: string;
  count: number;
  amount: bigint;
  fee: bigint;
  totalDebit: bigint;
  balance: bigint;
  balanceAfter: bigint;
};

export type CheckedPayout = { row: number; prepared: PreparedWithdrawal };

export type CheckedBatch = {
  errors: RowError[];
  /** The valid payouts, in order. */
  payouts: CheckedPayout[];
  /** Per source currency, over the valid payouts. */
  totals: BatchTotal[];
  /** What arrives, per currency sent, over the valid payouts. */
  sent: { currency: string; amount: bigint }[];
  /** Every currency each valid payout moves, for the limits (counted on the batch's total). */
  legs: MovedAmount[];
};

/** A row as the engine takes it: a withdrawal of the batch's sender, the foreign_id standing in for the customer's reference. */
function withdrawalInputOf(input: BatchCheckInput, row: PayoutRow): CreateWithdrawalInput {
  const endUserReference = row.end_user_reference ?? foreignIdText(row.foreign_id);
  return {
    ...withdrawalInput(
      input.merchantId,
      { ...row, ...input.sender, end_user_reference: endUserReference },
      input.pricing,
    ),
    createdByUserId: input.createdByUserId,
    apiKeyId: input.apiKeyId,
    audit: input.audit,
  };
}

/** A batch to check; who sends it, when it is checked to be sent (each payout's audit and ownership). */
type BatchCheckInput = {
  merchantId: number;
  sender: Sender;
  rows: readonly BatchRow[];
  pricing: Pricing;
  createdByUserId?: number;
  apiKeyId?: number;
  audit?: AuditSource;
};

/**
 * Checks every payout of a bulk payout before anything moves, as POST /withdrawal/crypto checks
 * one: fields and receiver data, the currency offered, the address's checksum and tag for its
 * network, the minimums (by pricing it), and its `foreign_id` used neither before nor twice in the
 * batch. Collects every problem by row and field instead of stopping at the first, and totals the
 * valid payouts per currency against the balances they leave. Writes nothing.
 */
export async function checkPayoutBatch(db: Executor, input: BatchCheckInput): Promise<CheckedBatch> {
  const errors: RowError[] = [];
  const parsed: { row: number; value: PayoutRow }[] = [];
  for (const { row, payout } of input.rows) {
    const result = payoutRow.safeParse(withoutNullOptionals(payoutRow, payout));
    if (result.success) parsed.push({ row, value: result.data });
    else
      for (const [field, message] of Object.entries(toFieldErrors(result.error)))
        errors.push({ row, field, message });
  }

  const firstRowOf = new Map<string, number>();
  const unique: typeof parsed = [];
  for (const entry of parsed) {
    const key = foreignIdText(entry.value.foreign_id);
    const first = firstRowOf.get(key);
    if (first === undefined) {
      firstRowOf.set(key, entry.row);
      unique.push(entry);
    } else
      errors.push({
        row: entry.row,
        field: "foreign_id",
        message: `The foreign id is also on row ${first}: each payout needs its own.`,
      });
  }
  const used = await usedForeignIds(db, input.merchantId, [...firstRowOf.keys()]);

  const payouts: CheckedPayout[] = [];
  for (const { row, value } of unique) {
    const earlier = used.get(foreignIdText(value.foreign_id));
    if (earlier !== undefined) {
      errors.push({
        row,
        field: "foreign_id",
        message: `The foreign id has already been taken (transaction ${earlier}).`,
      });
      continue;
    }
    try {
      const prepared = await prepareWithdrawal(db, withdrawalInputOf(input, value));
      payouts.push({ row, prepared });
    } catch (error) {
      if (!(error instanceof KassaError) || error.code !== "validation_failed" || !error.fields) throw error;
      for (const [field, message] of Object.entries(error.fields)) errors.push({ row, field, message });
    }
  }
  errors.sort((a, b) => a.row - b.row);
  return { errors, payouts, ...(await totalsOf(db, input.merchantId, payouts)) };
}

/** Which of these foreign ids the merchant already gave a transaction, with that transaction's id. */
async function usedForeignIds(db: Executor, merchantId: number, ids: string[]): Promise<Map<string, number>> {
  const used = new Map<string, number>();
  // In slices: a statement's parameters are bounded, and a batch has up to 1,000 ids.
  for (let start = 0; start < ids.length; start += 500) {
    const rows = await db
      .select({ id: transactions.id, foreignId: transactions.foreignId })
      .from(transactions)
      .where(
        and(
          eq(transactions.merchantId, merchantId),
          inArray(transactions.foreignId, ids.slice(start, start + 500)),
        ),
      );
    for (const row of rows) if (row.foreignId !== null) used.set(row.foreignId, row.id);
  }
  return used;
}

async function totalsOf(db: Executor, merchantId: number, payouts: readonly CheckedPayout[]) {
  const bySource = new Map<string, Omit<BatchTotal, "balance" | "balanceAfter">>();
  const sent = new Map<string, bigint>();
  const legs: MovedAmount[] = [];
  for (const { prepared } of payouts) {
    const { price } = prepared;
    const total = bySource.get(price.source) ?? {
      currency: price.source,
      count: 0,
      amount: 0n,
      fee: 0n,
      totalDebit: 0n,
    };
    total.count += 1;
    total.amount += price.principal;
    total.fee += price.withdrawalFee + price.networkFee;
    total.totalDebit += price.totalDebit;
    bySource.set(price.source, total);
    sent.set(price.target, (sent.get(price.target) ?? 0n) + price.sent);
    legs.push(...withdrawalLegs(price));
  }
  const totals: BatchTotal[] = [];
  for (const total of [...bySource.values()].sort((a, b) => a.currency.localeCompare(b.currency))) {
    const balance = await readBalance(db, { merchantId, currency: total.currency });
    totals.push({ ...total, balance, balanceAfter: balance - total.totalDebit });
  }
  return {
    totals,
    sent: [...sent]
      .map(([currency, amount]) => ({ currency, amount }))
      .sort((a, b) => a.currency.localeCompare(b.currency)),
    legs,
  };
}
