import "server-only";

import { asc, eq, sql } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { prepared } from "@/lib/db/prepared";
import { deposits } from "@/lib/db/schema";

export type InvoiceDeposit = typeof deposits.$inferSelect;

/**
 * Every payment recorded for an invoice, whatever its status, oldest first: read once by an invoice's
 * wire view (lib/transactions/load-invoice-wire.ts) and handed to each part that sums some of them.
 */
export async function listInvoiceDeposits(db: Executor, invoiceId: number): Promise<InvoiceDeposit[]> {
  const query = prepared(db, "invoice_deposits", (db, name) =>
    db
      .select()
      .from(deposits)
      .where(eq(deposits.transactionId, sql.placeholder("id")))
      .orderBy(asc(deposits.id))
      .prepare(name),
  );
  return query.execute({ id: invoiceId });
}
