import "server-only";

import { eq, sql } from "drizzle-orm";
import { type AuditSource, recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { findCurrency } from "@/lib/currencies/registry";
import type { Executor } from "@/lib/db/client";
import { merchants, withdrawalLimits } from "@/lib/db/schema";
import { fieldError, notFound } from "@/lib/errors";
import { AmountFormatError, formatAmount, parsePositiveAmount } from "@/lib/money";

export type WithdrawalLimitsView = {
  currency: string;
  per_withdrawal: string;
  per_day: string | null;
};

/** A limit as typed: a decimal of at most the currency's precision; `0` sends every withdrawal to approval. */
function parseLimit(field: string, text: string, precision: number): bigint {
  if (/^0+(\.0+)?$/.test(text.trim())) return 0n;
  try {
    return parsePositiveAmount(text.trim(), precision);
  } catch (error) {
    if (error instanceof AmountFormatError) throw fieldError({ [field]: `The limit ${error.message}.` });
    throw error;
  }
}

/**
 * Sets a merchant's withdrawal limits in one currency (replacing the ones it had). They hold every
 * withdrawal and exchange that touches the currency, leaving it or arriving in it (judge-withdrawal-limits.ts).
 * Field names are the CLI's and the dashboard's: `per_withdrawal`, `per_day`. With `audit`, the
 * change is recorded in the audit trail: pass a transaction as `db` so both happen together.
 */
export async function setWithdrawalLimits(
  db: Executor,
  input: {
    merchantId: number;
    currency: string;
    perWithdrawal: string;
    perDay?: string | null;
    audit?: AuditSource;
  },
): Promise<WithdrawalLimitsView> {
  const currency = findCurrency(input.currency);
  if (!currency) throw fieldError({ currency: `Unknown currency ${input.currency}.` });
  const perWithdrawal = parseLimit("per_withdrawal", input.perWithdrawal, currency.precision);
  const perDay =
    input.perDay === undefined || input.perDay === null || input.perDay === ""
      ? null
      : parseLimit("per_day", input.perDay, currency.precision);
  if (perDay !== null && perDay < perWithdrawal) {
    throw fieldError({ per_day: "The daily limit cannot be below the limit per withdrawal." });
  }
  const [merchant] = await db
    .select({ id: merchants.id })
    .from(merchants)
    .where(eq(merchants.id, input.merchantId));
  if (!merchant) throw notFound("No such merchant.");
  await db
    .insert(withdrawalLimits)
    .values({ merchantId: input.merchantId, currency: currency.code, perWithdrawal, perDay })
    .onConflictDoUpdate({
      target: [withdrawalLimits.merchantId, withdrawalLimits.currency],
      set: { perWithdrawal, perDay, updatedAt: sql`now()` },
    });
  if (input.audit)
    await recordAuditEntry(db, {
      merchantId: input.merchantId,
      ...input.audit,
      action: "limit_changed",
      detail: `${currency.code}: ${formatAmount(perWithdrawal)} per withdrawal, ${perDay === null ? "no" : formatAmount(perDay)} per day`,
    });
  return {
    currency: currency.code,
    per_withdrawal: formatAmount(perWithdrawal),
    per_day: perDay === null ? null : formatAmount(perDay),
  };
}
