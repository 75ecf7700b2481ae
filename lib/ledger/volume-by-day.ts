import "server-only";

import { and, eq, gte, sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { ledgerAccounts, ledgerEntries } from "@/lib/db/schema";

export type DailyVolume = { day: string; currency: string; incoming: bigint; outgoing: bigint };

/** Money into and out of the merchant's balances per UTC day and currency, from the ledger (last `days` days). */
export async function volumeByDay(db: Executor, merchantId: number, days = 14): Promise<DailyVolume[]> {
  const { amount, createdAt } = ledgerEntries;
  // UTC days, whatever the session's zone: the dashboard shows every time in UTC (lib/format-date-time.ts).
  const day = sql<string>`to_char(${createdAt} at time zone 'UTC', 'YYYY-MM-DD')`;
  return db
    .select({
      day,
      currency: ledgerEntries.currency,
      // Read through the amount column, so the sums come back as exact bigint minor units.
      incoming: sql`coalesce(sum(${amount}) filter (where ${amount} > 0), 0)`.mapWith(amount),
      outgoing: sql`coalesce(-sum(${amount}) filter (where ${amount} < 0), 0)`.mapWith(amount),
    })
    .from(ledgerEntries)
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerEntries.accountId))
    .where(
      and(
        eq(ledgerAccounts.merchantId, merchantId),
        eq(ledgerAccounts.kind, "balance"),
        gte(createdAt, sql`date_trunc('day', now(), 'UTC') - make_interval(days => ${days - 1})`),
      ),
    )
    .groupBy(day, ledgerEntries.currency)
    .orderBy(day, ledgerEntries.currency);
}
