import "server-only";

import { and, eq, inArray } from "drizzle-orm";
import { queueCallback } from "@/lib/callbacks/queue-callback";
import { type Clock, systemClock } from "@/lib/clock";
import type { Tx } from "@/lib/db/client";
import { deposits } from "@/lib/db/schema";
import { queueEmail } from "@/lib/mail/queue-email";
import {
  latePaymentEmail,
  overpaidEmail,
  partiallyPaidEmail,
  receiptEmail,
  underpaidEmail,
} from "@/lib/mail/templates";
import { TERMINAL_INVOICE_STATUSES } from "@/lib/transactions/statuses";
import { judgePayments, type PaymentJudgement, paymentsWorth } from "./judge-payments";
import { type InvoiceRecord, loadInvoiceById } from "./load-invoice";
import { setInvoiceStatus } from "./set-invoice-status";

/** The figures of the customer's e-mails; `worth` when the payments were judged by value. */
function facts(record: InvoiceRecord, paid: bigint, worth: PaymentJudgement["worth"] = null) {
  return {
    merchantName: record.merchantName,
    title: record.invoice.title,
    invoiceId: record.id,
    currency: record.invoice.senderCurrency!,
    due: record.invoice.senderAmount!,
    paid,
    worth,
    supportEmail: record.supportEmail,
  };
}

/**
 * The merchant's `email_user`, else the e-mail the customer gave with their details on the checkout
 * (a dashboard invoice may have neither: then nobody is written to).
 */
function recipientOf(record: InvoiceRecord): string | null {
  const given = (record.invoice.senderData as { email?: unknown } | null)?.email;
  return record.invoice.emailUser ?? (typeof given === "string" ? given : null);
}

async function mail(tx: Tx, record: InvoiceRecord, kind: string, message: { subject: string; body: string }) {
  const recipient = recipientOf(record);
  if (!recipient) return;
  await queueEmail(tx, {
    merchantId: record.merchantId,
    transactionId: record.id,
    kind,
    recipient,
    ...message,
  });
}

/**
 * Decides an invoice after a payment was credited (judge-payments.ts; docs/api-decisions.md, "Amounts that
 * differ"). Another payment still seen or held: it waits, callback `invoice.payment_credited`. Paid in full:
 * `confirmed`. Short: `pending` until its deadline, then `failed` (failShort; a timerless `fill_or_kill` at
 * once). Already closed: flagged late, callback `invoice.late_payment`. E-mails the customer.
 */
export async function settleInvoice(
  tx: Tx,
  input: { invoiceId: number; depositId: number; amount: bigint; clock?: Clock },
) {
  const record = (await loadInvoiceById(tx, input.invoiceId, true))!;
  const { invoice } = record;
  if (TERMINAL_INVOICE_STATUSES.includes(record.status)) {
    await tx.update(deposits).set({ isLate: true }).where(eq(deposits.id, input.depositId));
    await mail(
      tx,
      record,
      "late_payment",
      latePaymentEmail({ ...facts(record, invoice.confirmedAmount), received: input.amount }),
    );
    await queueCallback(tx, {
      transactionId: record.id,
      status: record.status,
      event: "invoice.late_payment",
    });
    return;
  }
  // Payments to an address shown before a switch of coins are not in the paid sums: asked apart.
  if (invoice.paidAmount > invoice.confirmedAmount || (await hasPaymentInFlight(tx, record.id))) {
    await queueCallback(tx, {
      transactionId: record.id,
      status: record.status,
      event: "invoice.payment_credited",
    });
    return;
  }

  await judgeCredited(tx, record, input.clock);
}

/**
 * Decides an invoice whose payments all arrived or were taken back (none seen or held any more) on
 * what was credited: a reviewer rejected, or a reorganisation removed, the payment it waited for,
 * and the payments credited meanwhile (their settlement waited for it) may well be complete. The
 * same judgement as settleInvoice's; an invoice that has nothing credited is not judged here.
 */
export async function settleCreditedInvoice(tx: Tx, input: { invoiceId: number; clock?: Clock }) {
  const record = await loadInvoiceById(tx, input.invoiceId, true);
  if (!record || TERMINAL_INVOICE_STATUSES.includes(record.status)) return;
  if (await hasPaymentInFlight(tx, record.id)) return;
  await judgeCredited(tx, record, input.clock);
}

/**
 * The outcome of an invoice judged on its credited payments (settleInvoice's, from "Paid in full" on);
 * also the expiry job's, for an invoice with something credited at its deadline.
 */
export async function judgeCredited(tx: Tx, record: InvoiceRecord, clock: Clock = systemClock) {
  const { invoice } = record;
  const paid = invoice.confirmedAmount;
  const judgement = judgePayments(record, await paymentsWorth(tx, record));
  const figures = facts(record, paid, judgement.worth);
  if (judgement.isComplete) {
    // The life cycle confirms from `processing` only (DESIGN.md section 6): an invoice paid in full
    // that an earlier review rejection left `pending` passes through it at its deadline.
    if (record.status === "pending") await setInvoiceStatus(tx, record.id, "processing", "payment_seen");
    await setInvoiceStatus(tx, record.id, "confirmed", confirmedReason(judgement));
    await mail(tx, record, "receipt", receiptEmail(figures));
    if (judgement.isOverpaid) await mail(tx, record, "refund_overpaid", overpaidEmail(figures));
    return;
  }
  const now = clock.now();
  const hasTimeLeft = invoice.expiresAt !== null && invoice.expiresAt > now;
  // Without a timer a partial-pay invoice waits for the rest as long as it takes.
  const isOpenEnded = invoice.expiresAt === null && invoice.type === "good_until_expired";
  if (hasTimeLeft || isOpenEnded) {
    await setInvoiceStatus(tx, record.id, "pending", "awaiting_remainder");
    return;
  }
  await failShort(tx, record, figures);
}

/** Why a complete invoice is confirmed: the reason records a short payment forgiven by the tolerance. */
function confirmedReason(judgement: PaymentJudgement) {
  if (judgement.isOverpaid) return "overpaid";
  return judgement.isWithinTolerance ? "paid_within_tolerance" : "paid";
}

/**
 * Whether a payment to the invoice is still only seen (unconfirmed) or held for compliance review,
 * whatever its currency: either may still count, so the invoice is not judged without it.
 */
async function hasPaymentInFlight(tx: Tx, invoiceId: number): Promise<boolean> {
  const [row] = await tx
    .select({ id: deposits.id })
    .from(deposits)
    .where(and(eq(deposits.transactionId, invoiceId), inArray(deposits.status, ["seen", "held"])))
    .limit(1);
  return row !== undefined;
}

/** A short invoice whose time ran out fails, and the customer is told how the refund works. */
async function failShort(tx: Tx, record: InvoiceRecord, figures: ReturnType<typeof facts>) {
  if (record.invoice.type === "fill_or_kill") {
    await setInvoiceStatus(tx, record.id, "failed", "underpaid");
    await mail(tx, record, "refund_underpaid", underpaidEmail(figures));
    return;
  }
  await setInvoiceStatus(tx, record.id, "failed", "partially_paid");
  await mail(tx, record, "refund_partial", partiallyPaidEmail(figures));
}
