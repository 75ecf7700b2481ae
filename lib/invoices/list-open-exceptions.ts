import "server-only";

import { and, eq, or } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { deposits } from "@/lib/db/schema";
import type { InvoiceRecord } from "./load-invoice";

/** Why an invoice owes its customer something back, or holds money the merchant must decide about. */
export type InvoiceOwing = "short" | "overpaid" | "late" | "rejected";

/**
 * What an invoice owes its customer (lib/invoices/owed-refund.ts's cases, and more): everything it
 * received when it failed short, the excess when it was paid over, a payment that arrived after it
 * closed (expired, failed, cancelled or already paid: `isLate`), and a payment a compliance reviewer
 * rejected (its funds are held, owed back to the sender). Empty when nothing is owed. Whether it was
 * since refunded or resolved is not looked at here.
 */
export async function listOpenExceptions(db: Executor, record: InvoiceRecord): Promise<InvoiceOwing[]> {
  const found: InvoiceOwing[] = [];
  const { invoice } = record;
  const isShort =
    record.status === "failed" &&
    (invoice.statusReason === "underpaid" || invoice.statusReason === "partially_paid") &&
    (invoice.confirmedAmount > 0n || invoice.creditedAmount > 0n);
  if (isShort) found.push("short");
  if (record.status === "confirmed" && invoice.statusReason === "overpaid") found.push("overpaid");
  const rows = await db
    .select({ isLate: deposits.isLate, status: deposits.status })
    .from(deposits)
    .where(
      and(
        eq(deposits.transactionId, record.id),
        or(eq(deposits.isLate, true), eq(deposits.status, "rejected")),
      ),
    );
  if (rows.some((r) => r.isLate && r.status === "credited")) found.push("late");
  if (rows.some((r) => r.status === "rejected")) found.push("rejected");
  return found;
}
