import "server-only";

import { and, eq, min } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { deposits } from "@/lib/db/schema";

/**
 * How long a payment may stay unconfirmed: the public API stops the 15-minute timer when a payment
 * is seen and gives it 24 hours to confirm, after which the invoice fails ("Transactions were in
 * status processing too long").
 */
export const PROCESSING_TIMEOUT_SECONDS = 24 * 60 * 60;

/**
 * When an invoice in `processing` fails: 24 hours after the oldest of its payments still
 * unconfirmed was seen. Null when none is unconfirmed (nothing to time out).
 */
export async function processingDeadline(db: Executor, invoiceId: number): Promise<Date | null> {
  const [row] = await db
    .select({ since: min(deposits.createdAt) })
    .from(deposits)
    .where(and(eq(deposits.transactionId, invoiceId), eq(deposits.status, "seen")));
  if (!row?.since) return null;
  return new Date(new Date(row.since).getTime() + PROCESSING_TIMEOUT_SECONDS * 1000);
}
