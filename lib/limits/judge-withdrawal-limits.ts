import "server-only";

import { sql } from "drizzle-orm";
import { type Clock, sqlNow } from "@/lib/clock";
import { type Executor, queryRows } from "@/lib/db/client";
import { formatAmountShort, parseStoredAmount } from "@/lib/money";
import { findWithdrawalLimits } from "./find-withdrawal-limits";

/**
 * What a movement of money moves in one currency it touches: a withdrawal, its principal and (converting)
 * what it sends; an exchange, what it sells and what it buys. Each as the movement's price fixed it (what
 * leaves rounded up, what arrives down); fees are not counted. Why: docs/decisions/withdrawal-limits.md.
 */
export type MovedAmount = { currency: string; amount: bigint };

export type LimitVerdict =
  | { isWithin: true }
  | {
      isWithin: false;
      currency: string;
      limit: "per_withdrawal" | "per_day";
      /** The limit's amount. */
      allowed: bigint;
      /** What this movement moves in that currency. */
      amount: bigint;
      /** For the daily limit: what was left of it today before this movement (never negative). */
      left: bigint;
    };

/** The legs of a withdrawal: its principal, and what it sends when that is another currency. */
export function withdrawalLegs(price: {
  source: string;
  target: string;
  principal: bigint;
  sent: bigint;
}): MovedAmount[] {
  const legs = [{ currency: price.source, amount: price.principal }];
  if (price.target !== price.source) legs.push({ currency: price.target, amount: price.sent });
  return legs;
}

/** The legs of an exchange: what it sells and what it buys. */
export function exchangeLegs(price: {
  senderCurrency: string;
  receiverCurrency: string;
  senderAmount: bigint;
  receiverAmount: bigint;
}): MovedAmount[] {
  return [
    { currency: price.senderCurrency, amount: price.senderAmount },
    { currency: price.receiverCurrency, amount: price.receiverAmount },
  ];
}

/**
 * Whether a movement of money (a withdrawal of any kind, a refund, an exchange) is within the
 * merchant's per-withdrawal and per-UTC-day limits of every currency it touches. Call it inside the
 * transaction that writes the movement: it locks the limit rows. docs/decisions/withdrawal-limits.md.
 */
export async function judgeWithdrawalLimits(
  tx: Executor,
  input: { merchantId: number; legs: readonly MovedAmount[]; clock?: Clock },
): Promise<LimitVerdict> {
  const moved = new Map<string, bigint>();
  for (const leg of input.legs) moved.set(leg.currency, (moved.get(leg.currency) ?? 0n) + leg.amount);
  const limits = await findWithdrawalLimits(tx, {
    merchantId: input.merchantId,
    currencies: [...moved.keys()].sort(),
    lock: true,
  });
  for (const [currency, limit] of limits) {
    const amount = moved.get(currency)!;
    if (amount > limit.perWithdrawal) {
      return {
        isWithin: false,
        currency,
        limit: "per_withdrawal",
        allowed: limit.perWithdrawal,
        amount,
        left: 0n,
      };
    }
  }
  const daily = [...limits].filter(([, limit]) => limit.perDay !== null).map(([currency]) => currency);
  if (daily.length === 0) return { isWithin: true };
  const used = await usedToday(tx, { merchantId: input.merchantId, currencies: daily, clock: input.clock });
  for (const currency of daily) {
    const perDay = limits.get(currency)!.perDay!;
    const amount = moved.get(currency)!;
    const spent = used.get(currency) ?? 0n;
    if (spent + amount > perDay) {
      const left = perDay > spent ? perDay - spent : 0n;
      return { isWithin: false, currency, limit: "per_day", allowed: perDay, amount, left };
    }
  }
  return { isWithin: true };
}

/** What counted against the daily limits of `currencies` since midnight UTC, by the legs above. */
async function usedToday(
  tx: Executor,
  input: { merchantId: number; currencies: string[]; clock?: Clock },
): Promise<Map<string, bigint>> {
  const dayStart = sql`date_trunc('day', ${sqlNow(input.clock)} at time zone 'UTC') at time zone 'UTC'`;
  const currencies = sql.join(
    input.currencies.map((currency) => sql`${currency}`),
    sql`, `,
  );
  const rows = await queryRows<{ currency: string; total: string }>(
    tx,
    sql`with legs as (
          select w.transaction_id, w.source_currency as currency, w.principal as amount
          from withdrawals w
          where w.merchant_id = ${input.merchantId} and w.created_at >= ${dayStart}
          union all
          select w.transaction_id, w.target_currency, w.sent_amount
          from withdrawals w
          where w.merchant_id = ${input.merchantId} and w.created_at >= ${dayStart}
            and w.target_currency <> w.source_currency
          union all
          select e.transaction_id, e.sender_currency, e.sender_amount
          from exchanges e
          where e.merchant_id = ${input.merchantId} and e.created_at >= ${dayStart}
          union all
          select e.transaction_id, e.receiver_currency, e.receiver_amount
          from exchanges e
          where e.merchant_id = ${input.merchantId} and e.created_at >= ${dayStart})
        select legs.currency, sum(legs.amount)::text as total
        from legs join transactions t on t.id = legs.transaction_id
        where legs.currency in (${currencies})
          and t.status not in ('pending', 'declined', 'error', 'rejected')
        group by legs.currency`,
  );
  return new Map(rows.map((row) => [row.currency, parseStoredAmount(row.total)]));
}

/** The verdict in words, for a refusal: which limit of which currency, and what is left today. */
export function overLimitText(verdict: Extract<LimitVerdict, { isWithin: false }>, what: string): string {
  const { currency } = verdict;
  const amount = `${formatAmountShort(verdict.amount)} ${currency}`;
  if (verdict.limit === "per_withdrawal") {
    return `Over your ${currency} limit of ${formatAmountShort(verdict.allowed)} ${currency} per withdrawal or exchange: this ${what} moves ${amount}.`;
  }
  return `Over your ${currency} daily limit of ${formatAmountShort(verdict.allowed)} ${currency}: ${formatAmountShort(verdict.left)} ${currency} is left today and this ${what} moves ${amount}.`;
}
