import "server-only";

import type { Db } from "@/lib/db/client";
import { inTransaction } from "@/lib/db/transaction";
import { fieldError, notFound } from "@/lib/errors";
import { loadInvoiceByForeignId } from "./load-invoice";
import { setInvoiceStatus } from "./set-invoice-status";

/** The public API's refusal of a cancel, in its `errors` shape with its code. */
export const INVALID_INVOICE_STATE = {
  error: "Invoice cannot be cancelled in its current state.",
  code: "invalid_invoice_state",
};

/**
 * POST /invoices/<foreign_id>/cancel: allowed while `created`, `pending` or `processing`, as the
 * public API allows. A payment already seen (processing) or sent later to its address is still
 * credited to the merchant when it confirms, flagged late (lib/invoices/settle-invoice.ts): cancelling
 * stops the invoice, never the money. `confirmed`, `failed` and `cancelled` invoices are refused.
 */
export async function cancelInvoice(db: Db, input: { merchantId: number; foreignId: string }): Promise<void> {
  await inTransaction(db, async (tx) => {
    const record = await loadInvoiceByForeignId(tx, input.merchantId, input.foreignId, true);
    if (!record) throw notFound("No such invoice.");
    if (record.status !== "created" && record.status !== "pending" && record.status !== "processing")
      throw fieldError(INVALID_INVOICE_STATE);
    await setInvoiceStatus(tx, record.id, "cancelled", "cancelled_by_merchant");
  });
}
