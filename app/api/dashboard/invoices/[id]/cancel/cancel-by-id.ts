import "server-only";

import { and, eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { transactions } from "@/lib/db/schema";
import { KassaError, notFound } from "@/lib/errors";
import { cancelInvoice, INVALID_INVOICE_STATE } from "@/lib/invoices/cancel-invoice";

/**
 * The dashboard's Cancel: the invoice page knows the id, the public API's cancel the foreign_id, so
 * the id is resolved (scoped to the merchant: another's invoice is simply not found) and the API's
 * own cancelInvoice decides, with its rules. Its refusal keeps its code, worded for the page that
 * shows it (the API's `errors` object is for merchant servers).
 */
export async function cancelInvoiceById(db: Db, input: { merchantId: number; id: number }): Promise<void> {
  const [row] = await db
    .select({ foreignId: transactions.foreignId })
    .from(transactions)
    .where(
      and(
        eq(transactions.id, input.id),
        eq(transactions.merchantId, input.merchantId),
        eq(transactions.type, "invoice"),
      ),
    );
  if (!row?.foreignId) throw notFound("No such invoice.");
  try {
    await cancelInvoice(db, { merchantId: input.merchantId, foreignId: row.foreignId });
  } catch (error) {
    if (error instanceof KassaError && error.fields?.code === INVALID_INVOICE_STATE.code) {
      throw new KassaError(
        "validation_failed",
        "This invoice can no longer be cancelled: it is already paid, failed or cancelled.",
        { code: INVALID_INVOICE_STATE.code },
      );
    }
    throw error;
  }
}
