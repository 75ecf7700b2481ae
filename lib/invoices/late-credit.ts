import "server-only";

import { and, eq, sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { deposits } from "@/lib/db/schema";
import { parseStoredAmount } from "@/lib/money";
import type { InvoiceRecord } from "./load-invoice";

/**
 * What the payments that reached an invoice after it closed (expired, cancelled, failed or already
 * paid: `is_late`) brought in the coin the customer paid with, confirmed ones only: the merchant was
 * credited with them and owes them back (lib/invoices/owed-refund.ts). Late payments in another coin
 * are not counted: a refund is settled in the coin paid.
 */
export async function lateCredit(db: Executor, record: InvoiceRecord): Promise<bigint> {
  const pay = record.invoice.senderCurrency;
  if (!pay) return 0n;
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${deposits.amount}), 0)::text` })
    .from(deposits)
    .where(
      and(
        eq(deposits.transactionId, record.id),
        eq(deposits.isLate, true),
        eq(deposits.status, "credited"),
        eq(deposits.currency, pay),
      ),
    );
  return parseStoredAmount(row?.total ?? "0");
}
