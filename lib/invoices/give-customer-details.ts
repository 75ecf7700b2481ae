import "server-only";

import { eq } from "drizzle-orm";
import { type Clock, systemClock } from "@/lib/clock";
import { assertCustomerIdentity } from "@/lib/customers/assert-customer-identity";
import type { Db } from "@/lib/db/client";
import { invoices } from "@/lib/db/schema";
import { inTransaction } from "@/lib/db/transaction";
import { KassaError, notFound } from "@/lib/errors";
import type { Sender } from "@/lib/schemas/common";
import { type InvoiceRecord, loadInvoiceByToken } from "./load-invoice";

/**
 * The customer gives their details on the checkout, for a dashboard invoice made without them: stored as
 * POST /api/v2/invoices/create stores them, after the same identity check against `end_user_reference`
 * when the invoice has one. Details once given are never overwritten (records and screening rely on
 * them); a closed or expired invoice takes none.
 */
export async function giveCustomerDetails(
  db: Db,
  input: { token: string; sender: Sender; clock?: Clock },
): Promise<InvoiceRecord> {
  return inTransaction(db, async (tx) => {
    const record = await loadInvoiceByToken(tx, input.token, true);
    if (!record) throw notFound("No such invoice.");
    if (record.invoice.senderType !== null)
      throw new KassaError("conflict", "Your details are already recorded for this invoice.");
    const now = (input.clock ?? systemClock).now();
    const isOpen =
      (record.status === "created" || record.status === "pending") &&
      (record.invoice.expiresAt === null || record.invoice.expiresAt > now);
    if (!isOpen) throw new KassaError("conflict", "This invoice can no longer be paid.");
    if (record.endUserReference)
      await assertCustomerIdentity(tx, {
        merchantId: record.merchantId,
        endUserReference: record.endUserReference,
        ...input.sender,
      });
    await tx
      .update(invoices)
      .set({ senderType: input.sender.sender_type, senderData: input.sender.sender_data })
      .where(eq(invoices.transactionId, record.id));
    return {
      ...record,
      invoice: {
        ...record.invoice,
        senderType: input.sender.sender_type,
        senderData: input.sender.sender_data,
      },
    };
  });
}
