import "server-only";

import type { Db } from "@/lib/db/client";
import { inTransaction } from "@/lib/db/transaction";
import { fieldError, notFound } from "@/lib/errors";
import { type InvoiceRecord, loadInvoiceByForeignId, loadInvoiceById } from "./load-invoice";
import { setInvoiceStatus } from "./set-invoice-status";

/** POST /invoices/<foreign_id>/cancel: only before any payment is seen (created or pending). */
export async function cancelInvoice(
  db: Db,
  input: { merchantId: number; foreignId: string },
): Promise<InvoiceRecord> {
  return inTransaction(db, async (tx) => {
    const record = await loadInvoiceByForeignId(tx, input.merchantId, input.foreignId, true);
    if (!record) throw notFound("No such invoice.");
    if (record.status === "cancelled") return record;
    if (record.status !== "created" && record.status !== "pending") {
      throw fieldError({
        status:
          record.status === "processing"
            ? "The invoice cannot be cancelled: a payment for it is being confirmed."
            : `The invoice cannot be cancelled: it is already ${record.status}.`,
      });
    }
    // Payments that still arrive at its address are credited to the merchant and flagged as late.
    await setInvoiceStatus(tx, record.id, "cancelled", "cancelled_by_merchant");
    return (await loadInvoiceById(tx, record.id))!;
  });
}
