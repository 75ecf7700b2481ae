import "server-only";

import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { type AuditSource, actorText, recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { type Clock, systemClock } from "@/lib/clock";
import type { Db, Executor } from "@/lib/db/client";
import { prepared } from "@/lib/db/prepared";
import { invoiceResolutions, refundClaims, transactions } from "@/lib/db/schema";
import { inTransaction } from "@/lib/db/transaction";
import { KassaError, notFound } from "@/lib/errors";
import { cancelRefundOffer } from "@/lib/refunds/cancel-refund-offer";
import type { RESOLUTION_REASONS } from "@/lib/schemas/invoice-resolution";
import { isPayoutUnderWay } from "@/lib/withdrawals/list-refunds";
import { listOpenExceptions } from "./list-open-exceptions";
import { loadInvoiceById } from "./load-invoice";

export type ResolutionReason = (typeof RESOLUTION_REASONS)[number];

/** How each reason reads on the invoice page and in the audit trail. */
export const RESOLUTION_REASON_LABELS: Record<ResolutionReason, string> = {
  paid_outside: "Paid outside Kassa",
  customer_declined: "Customer declined a refund",
  too_small: "Too small to refund",
  other: "Other",
};

export type InvoiceResolution = typeof invoiceResolutions.$inferSelect;

/** The resolution of an invoice, or null when its exception was never closed. */
export async function loadInvoiceResolution(
  db: Executor,
  invoiceId: number,
): Promise<InvoiceResolution | null> {
  const query = prepared(db, "invoice_resolution", (db, name) =>
    db
      .select()
      .from(invoiceResolutions)
      .where(eq(invoiceResolutions.transactionId, sql.placeholder("invoiceId")))
      .prepare(name),
  );
  const [row] = await query.execute({ invoiceId });
  return row ?? null;
}

/** Whether the merchant closed the invoice's exception without a refund: no refund may follow. */
export async function isExceptionResolved(db: Executor, invoiceId: number): Promise<boolean> {
  return (await loadInvoiceResolution(db, invoiceId)) !== null;
}

/**
 * "Mark resolved": the merchant closes an invoice that owes its customer money (list-open-exceptions.ts)
 * without a refund, saying why. One-way: no refund follows. The invoice is locked, so a racing resolve or
 * refund sees this one. Cancels refunds offered and unclaimed (`refund.cancelled`); refused while a claimed
 * refund's payout is on its way. Moves no money; audited in the same transaction. For the dashboard and API.
 */
export async function resolveInvoiceException(
  db: Db,
  input: {
    merchantId: number;
    invoiceId: number;
    reason: ResolutionReason;
    note: string;
    audit: AuditSource;
    clock?: Clock;
  },
): Promise<InvoiceResolution> {
  const clock = input.clock ?? systemClock;
  return inTransaction(db, async (tx) => {
    const record = await loadInvoiceById(tx, input.invoiceId, true);
    if (!record || record.merchantId !== input.merchantId) throw notFound("No such invoice.");
    if (await loadInvoiceResolution(tx, record.id))
      throw new KassaError("conflict", "This invoice is already resolved.");
    if ((await listOpenExceptions(tx, record)).length === 0)
      throw new KassaError(
        "validation_failed",
        "This invoice owes its customer nothing: there is nothing to resolve.",
        { code: "nothing_to_resolve" },
      );
    const note = input.note.trim();
    if (input.reason === "other" && note === "")
      throw new KassaError("validation_failed", "Say why in the note.", { note: "Say why in the note." });
    // The refunds standing: one claimed whose payout is on its way cannot be taken back, so the
    // invoice is not closed under it; the open offers are cancelled with the resolution.
    const claims = await tx
      .select({
        id: refundClaims.id,
        invoiceId: refundClaims.invoiceId,
        merchantId: refundClaims.merchantId,
        status: refundClaims.status,
        expiresAt: refundClaims.expiresAt,
        payoutStatus: transactions.status,
      })
      .from(refundClaims)
      .leftJoin(transactions, eq(transactions.id, refundClaims.withdrawalId))
      .where(and(eq(refundClaims.invoiceId, record.id), inArray(refundClaims.status, ["offered", "claimed"])))
      .orderBy(asc(refundClaims.id))
      .for("update", { of: refundClaims });
    if (claims.some((c) => c.status === "claimed" && isPayoutUnderWay(c.payoutStatus)))
      throw new KassaError(
        "conflict",
        "The customer claimed a refund of this invoice and its payout is on its way: resolve it once the payout is sent or returned.",
      );
    const now = clock.now().getTime();
    for (const claim of claims)
      if (claim.status === "offered" && claim.expiresAt.getTime() > now)
        await cancelRefundOffer(tx, {
          claim,
          actor: input.audit,
          clock,
          why: "the invoice was resolved without a refund",
        });
    const [resolution] = await tx
      .insert(invoiceResolutions)
      .values({
        transactionId: record.id,
        merchantId: record.merchantId,
        reason: input.reason,
        note,
        resolvedBy: actorText(input.audit.actor),
      })
      .returning();
    await recordAuditEntry(tx, {
      merchantId: record.merchantId,
      ...input.audit,
      action: "invoice_resolved",
      detail: `Invoice ${record.id} (${record.foreignId}) resolved without a refund: ${RESOLUTION_REASON_LABELS[input.reason]}${note ? ` (${note})` : ""}`,
    });
    return resolution!;
  });
}
