import "server-only";

import { and, eq, ne, sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { deposits } from "@/lib/db/schema";
import { parseDecimal } from "@/lib/money";
import type { InvoiceRecord } from "./load-invoice";

export type OtherCoinCredit = { currency: string; amount: bigint };

/**
 * What an invoice received, per coin, in coins other than its pay currency: payments to an address
 * shown before the customer switched coins, credited to the merchant by their worth but never in the
 * pay currency's sums (confirmedAmount). A short invoice owes them back in the coin they came in
 * (docs/dashboard.md, "Refund owed"). Late payments are the merchant's, as the customer was told: not counted.
 */
export async function listOtherCoinCredits(db: Executor, record: InvoiceRecord): Promise<OtherCoinCredit[]> {
  const pay = record.invoice.senderCurrency;
  if (!pay) return [];
  const rows = await db
    .select({ currency: deposits.currency, amount: sql<string>`sum(${deposits.amount})::text` })
    .from(deposits)
    .where(
      and(
        eq(deposits.transactionId, record.id),
        eq(deposits.status, "credited"),
        eq(deposits.isLate, false),
        ne(deposits.currency, pay),
      ),
    )
    .groupBy(deposits.currency)
    .orderBy(deposits.currency);
  return rows.map((row) => ({ currency: row.currency, amount: parseDecimal(row.amount) }));
}
