import "server-only";

import { and, desc, eq, inArray } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { invoices, transactions } from "@/lib/db/schema";
import { OPEN_INVOICE_STATUSES } from "@/lib/transactions/statuses";

export type OpenInvoice = {
  id: number;
  title: string;
  foreignId: string;
  status: string;
  reason: string | null;
  currency: string;
  amount: bigint;
  payCurrency: string | null;
};

/** A merchant's invoices still open (awaiting a currency, a payment or confirmations), newest first. */
export async function listOpenInvoices(
  db: Executor,
  input: { merchantId: number; limit?: number },
): Promise<OpenInvoice[]> {
  const rows = await db
    .select({
      id: transactions.id,
      title: invoices.title,
      foreignId: transactions.foreignId,
      status: transactions.status,
      reason: invoices.statusReason,
      currency: transactions.currency,
      amount: transactions.amount,
      payCurrency: invoices.senderCurrency,
    })
    .from(transactions)
    .innerJoin(invoices, eq(invoices.transactionId, transactions.id))
    .where(
      and(
        eq(transactions.merchantId, input.merchantId),
        eq(transactions.type, "invoice"),
        inArray(transactions.status, [...OPEN_INVOICE_STATUSES]),
      ),
    )
    .orderBy(desc(transactions.id))
    .limit(input.limit ?? 50);
  return rows.map((row) => ({
    ...row,
    foreignId: row.foreignId ?? "",
    currency: row.currency ?? "",
    amount: row.amount ?? 0n,
  }));
}
