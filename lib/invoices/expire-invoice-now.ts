import "server-only";

import { eq } from "drizzle-orm";
import { type Clock, systemClock } from "@/lib/clock";
import type { Db } from "@/lib/db/client";
import { invoices } from "@/lib/db/schema";
import { inTransaction } from "@/lib/db/transaction";
import { fieldError, notFound } from "@/lib/errors";
import { expireInvoice } from "./expire-invoice";
import { loadInvoiceById } from "./load-invoice";

/**
 * Sandbox: an open invoice's timer runs out now. Its deadline is moved to this moment and the
 * timer's own expiry runs, so it ends exactly as it would have (expired unpaid, or failed short
 * with what was paid, customer e-mails and callbacks included). One with a payment still
 * confirming is refused: its outcome waits for the blocks.
 */
export async function expireInvoiceNow(
  db: Db,
  input: { merchantId: number; invoiceId: number; clock?: Clock },
): Promise<void> {
  const clock = input.clock ?? systemClock;
  await inTransaction(db, async (tx) => {
    const record = await loadInvoiceById(tx, input.invoiceId, true);
    if (!record || record.merchantId !== input.merchantId) throw notFound("No such invoice.");
    if (record.status === "processing") {
      throw fieldError({
        invoice: "A payment to this invoice is confirming: mine blocks to settle it first.",
      });
    }
    if (record.status !== "created" && record.status !== "pending") {
      throw fieldError({ invoice: "This invoice is already closed." });
    }
    await tx.update(invoices).set({ expiresAt: clock.now() }).where(eq(invoices.transactionId, record.id));
    await expireInvoice(tx, record.id, clock);
  });
}
