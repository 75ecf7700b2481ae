import "server-only";

import { type AuditSource, actorText, recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { type Clock, systemClock } from "@/lib/clock";
import type { SecretBox } from "@/lib/crypto/secret-box";
import type { Db } from "@/lib/db/client";
import { refundClaims } from "@/lib/db/schema";
import { inTransaction } from "@/lib/db/transaction";
import { fieldError, notFound } from "@/lib/errors";
import { loadInvoiceById } from "@/lib/invoices/load-invoice";
import { isExceptionResolved } from "@/lib/invoices/resolve-invoice-exception";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { REFUND_EXPIRY_QUEUE } from "@/lib/jobs/queues";
import { queueEmail } from "@/lib/mail/queue-email";
import { refundReadyEmail } from "@/lib/mail/refund-templates";
import { formatAmountShort } from "@/lib/money";
import { owedBack } from "./owed-back";
import { previewFor } from "./preview-refund";
import { type RefundView, readRefund } from "./read-refund";
import { recordRefundEvent } from "./record-refund-event";
import {
  DEFAULT_REFUND_SECONDS,
  MAX_REFUND_SECONDS,
  MIN_REFUND_SECONDS,
  type RefundTerms,
} from "./refund-terms";
import { hashRefundToken, newRefundNonce, refundPath, refundToken } from "./refund-token";

/**
 * Offers the customer a refund on the merchant's terms. Under the invoice's row lock it settles what is
 * still owed (concurrent refunds never promise more; refund payouts count this one), refuses terms where
 * every allowed coin is under its network's minimum, and writes the refund, timeline event, audit entry,
 * expiry job and, with `mail`, the e-mail (sealed until sent). Returns the token once; only its hash is kept.
 */
export async function issueRefund(
  db: Db,
  input: {
    merchantId: number;
    invoiceId: number;
    terms: RefundTerms;
    actor: AuditSource;
    /** The master key's box: the link's token is derived under it (lib/refunds/refund-token.ts). */
    box: SecretBox;
    /** The e-mail to the invoice's customer: the link is `${baseUrl}/refund/<token>`. */
    mail?: { baseUrl: string };
    clock?: Clock;
  },
): Promise<{ refund: RefundView; token: string }> {
  const clock = input.clock ?? systemClock;
  const seconds = input.terms.expiresInSeconds ?? DEFAULT_REFUND_SECONDS;
  if (!Number.isInteger(seconds) || seconds < MIN_REFUND_SECONDS || seconds > MAX_REFUND_SECONDS)
    throw fieldError({ expires_in: "A refund link works between an hour and 90 days." });
  const nonce = newRefundNonce();
  const token = refundToken(input.box, nonce);
  const id = await inTransaction(db, async (tx) => {
    const record = await loadInvoiceById(tx, input.invoiceId, true);
    if (!record || record.merchantId !== input.merchantId)
      throw notFound(`There is no invoice ${input.invoiceId} in your account.`);
    if (await isExceptionResolved(tx, record.id))
      throw fieldError({
        refund_of: `Invoice ${record.id} was marked resolved without a refund: it offers no refund any more.`,
      });
    const owed = await owedBack(tx, record, { clock });
    if (!owed)
      throw fieldError({
        refund_of: `Invoice ${record.id} owes no refund: only an invoice that failed short, was overpaid, or was paid after it closed does.`,
      });
    const preview = await previewFor(tx, { record, owed, terms: input.terms });
    if (preview.isUnderMinimum) {
      const paid = preview.options[0]!;
      throw fieldError({
        amount: `A refund of ${formatAmountShort(paid.receives)} ${paid.currency} is under the network's minimum of ${formatAmountShort(paid.minimum)} ${paid.currency}: refund a larger amount, allow another coin, or close the invoice without a refund.`,
      });
    }
    const expiresAt = new Date(clock.now().getTime() + seconds * 1000);
    const [row] = await tx
      .insert(refundClaims)
      .values({
        merchantId: record.merchantId,
        invoiceId: record.id,
        tokenHash: hashRefundToken(token),
        tokenNonce: nonce,
        status: "offered",
        payCurrency: preview.currency,
        owedAmount: preview.amount,
        amountKind: input.terms.amount.kind,
        rateBasis: input.terms.rateBasis,
        feePaidBy: input.terms.feePaidBy,
        currencies: preview.options.map((option) => option.currency),
        paymentValue: preview.paymentValue,
        expiresAt,
        createdByUserId: input.actor.actor.kind === "user" ? input.actor.actor.userId : null,
        createdBy: actorText(input.actor.actor),
      })
      .returning({ id: refundClaims.id });
    const refundId = row!.id;
    await recordRefundEvent(tx, {
      refundId,
      invoiceId: record.id,
      merchantId: record.merchantId,
      event: "refund_issued",
    });
    await recordAuditEntry(tx, {
      merchantId: record.merchantId,
      actor: input.actor.actor,
      address: input.actor.address,
      action: "refund_issued",
      detail: `refund ${refundId} of invoice ${record.id}: ${formatAmountShort(preview.amount)} ${preview.currency}`,
    });
    await enqueueJob(tx, {
      queue: REFUND_EXPIRY_QUEUE,
      payload: { refundId },
      runAt: expiresAt,
      dedupeKey: `refund-expiry:${refundId}`,
    });
    if (input.mail && record.invoice.emailUser) {
      const message = refundReadyEmail({
        merchantName: record.merchantName,
        title: record.invoice.title,
        invoiceId: record.id,
        amount: preview.amount,
        currency: preview.currency,
        link: `${input.mail.baseUrl}${refundPath(token)}`,
        expiresAt,
      });
      await queueEmail(tx, {
        merchantId: record.merchantId,
        transactionId: record.id,
        kind: "refund_ready",
        recipient: record.invoice.emailUser,
        ...message,
        secret: { token, box: input.box },
      });
    }
    return refundId;
  });
  const refund = await readRefund(db, { merchantId: input.merchantId, id }, clock);
  return { refund: refund!, token };
}
