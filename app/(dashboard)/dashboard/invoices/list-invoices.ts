import "server-only";

import { and, desc, eq, exists, ilike, inArray, or, type SQL } from "drizzle-orm";
import {
  type InvoiceException,
  invoiceExceptions,
  UNDERPAID_REASONS,
} from "@/components/dashboard/invoice-status";
import type { Db } from "@/lib/db/client";
import { deposits, invoices, transactions } from "@/lib/db/schema";

export type InvoiceFilter = { status?: string; exception?: InvoiceException; prefix?: string };

const PAGE_SIZE = 100;

/** LIKE's wildcards in the merchant's text are matched literally: the search is a prefix search. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The newest invoices of a merchant, filtered by status, exception and a prefix of the title or your id. */
export async function listInvoices(db: Db, input: { merchantId: number; filter: InvoiceFilter }) {
  const { filter } = input;
  const late = exists(
    db
      .select({ one: deposits.id })
      .from(deposits)
      .where(and(eq(deposits.transactionId, transactions.id), eq(deposits.isLate, true))),
  );
  const where: (SQL | undefined)[] = [
    eq(transactions.merchantId, input.merchantId),
    eq(transactions.type, "invoice"),
  ];
  if (filter.status) where.push(eq(transactions.status, filter.status));
  if (filter.exception === "underpaid") where.push(inArray(invoices.statusReason, UNDERPAID_REASONS));
  if (filter.exception === "overpaid") where.push(eq(invoices.statusReason, "overpaid"));
  if (filter.exception === "late") where.push(late);
  if (filter.prefix) {
    const pattern = `${escapeLike(filter.prefix)}%`;
    where.push(or(ilike(invoices.title, pattern), ilike(transactions.foreignId, pattern)));
  }
  const rows = await db
    .select({
      id: transactions.id,
      foreignId: transactions.foreignId,
      status: transactions.status,
      currency: transactions.currency,
      amount: transactions.amount,
      createdAt: transactions.createdAt,
      title: invoices.title,
      reason: invoices.statusReason,
      hasLatePayment: late,
    })
    .from(transactions)
    .innerJoin(invoices, eq(invoices.transactionId, transactions.id))
    .where(and(...where))
    .orderBy(desc(transactions.id))
    .limit(PAGE_SIZE);
  return rows.map((row) => ({
    ...row,
    exceptions: invoiceExceptions({
      status: row.status,
      reason: row.reason,
      hasLatePayment: Boolean(row.hasLatePayment),
    }),
  }));
}
