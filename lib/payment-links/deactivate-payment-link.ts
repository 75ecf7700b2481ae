import "server-only";

import { and, eq } from "drizzle-orm";
import { type AuditSource, recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { type Clock, systemClock } from "@/lib/clock";
import type { Db } from "@/lib/db/client";
import { paymentLinks } from "@/lib/db/schema";
import { inTransaction } from "@/lib/db/transaction";
import { notFound } from "@/lib/errors";
import type { PaymentLinkRecord } from "./link-usage";
import { loadPaymentLink } from "./load-payment-link";

/**
 * Turns a link off for good: it takes no new visits, while invoices already started from it carry
 * on. The link's row is locked, so a visit starting at the same moment either got its invoice before
 * or is refused after. Deactivating an inactive link answers it as it is (nothing is audited twice).
 */
export async function deactivatePaymentLink(
  db: Db,
  input: { merchantId: number; id: number; audit: AuditSource; clock?: Clock },
): Promise<PaymentLinkRecord> {
  const clock = input.clock ?? systemClock;
  return inTransaction(db, async (tx) => {
    const [link] = await tx
      .select({ isActive: paymentLinks.isActive, title: paymentLinks.title })
      .from(paymentLinks)
      .where(and(eq(paymentLinks.id, input.id), eq(paymentLinks.merchantId, input.merchantId)))
      .for("update");
    if (!link) throw notFound("No such payment link.");
    if (link.isActive) {
      await tx
        .update(paymentLinks)
        .set({ isActive: false, deactivatedAt: clock.now() })
        .where(eq(paymentLinks.id, input.id));
      await recordAuditEntry(tx, {
        merchantId: input.merchantId,
        ...input.audit,
        action: "payment_link_deactivated",
        detail: `Payment link ${input.id} "${link.title}"`,
      });
    }
    return (await loadPaymentLink(tx, { merchantId: input.merchantId, id: input.id, clock }))!;
  });
}
