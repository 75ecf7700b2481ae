import { dashboardAmount } from "./dashboard-amount";
import { invoiceStatusLabel } from "./invoice-status";

/**
 * What each kind of event on an invoice's timeline says, by the status it led to and its reason
 * (lib/transactions/transition-status.ts and the events written beside it). A kind not listed reads
 * as its status label with its reason in words, never as a bare code.
 */
const EVENT_TEXTS: Record<string, string> = {
  "created:": "Created, awaiting the customer's choice of currency",
  "pending:timer_started": "Created, awaiting payment",
  "pending:currency_fixed": "Currency fixed: awaiting payment",
  "pending:currency_switched": "Customer switched to another currency",
  "processing:payment_seen": "Payment seen on the network, confirming",
  "pending:awaiting_remainder": "Payment confirmed but short: awaiting the rest",
  "pending:payment_removed": "A payment was dropped by the network: awaiting payment",
  "pending:payment_rejected": "A payment was rejected in compliance review: awaiting payment",
  "confirmed:paid": "Payment confirmed: paid",
  "confirmed:overpaid": "Payment confirmed: paid more than asked",
  "confirmed:paid_within_tolerance": "Payment confirmed: paid within your underpayment tolerance",
  "failed:expired": "Expired unpaid",
  "failed:underpaid": "Failed: paid less than asked by the deadline",
  "failed:partially_paid": "Failed: partly paid by the deadline",
  "failed:processing_expired": "Failed: the payment was not confirmed within 24 hours",
  "cancelled:cancelled_by_merchant": "Cancelled by you",
};

/** Steps that keep the invoice's status (lib/refunds/record-refund-event.ts): named by their reason alone. */
const REASON_TEXTS: Record<string, string> = {
  refund_issued: "Refund offered to the customer",
  refund_claimed: "Refund claimed by the customer: the payout is on its way",
  refund_cancelled: "Refund offer cancelled",
  refund_expired: "Refund offer expired unclaimed",
};

/** A code such as `refund_claimed` in words: "refund claimed". */
const words = (code: string) => code.replaceAll("_", " ");

export function timelineEventText(status: string, reason: string | null): string {
  const known = (reason && REASON_TEXTS[reason]) || EVENT_TEXTS[`${status}:${reason ?? ""}`];
  if (known) return known;
  const label = invoiceStatusLabel(status, reason);
  return reason && !label.toLowerCase().includes(words(reason)) ? `${label} (${words(reason)})` : label;
}

/**
 * The invoice's heading state: its status in words, except that a payment after it closed is the
 * news (it is no longer "Expired unpaid"), and a closed exception says it was resolved.
 */
export function invoiceHeadline(input: {
  status: string;
  reason: string | null;
  hasLatePayment: boolean;
  isResolved: boolean;
}): string {
  const base = input.hasLatePayment
    ? lateHeadline(input.status, input.reason)
    : invoiceStatusLabel(input.status, input.reason);
  return input.isResolved ? `${base} · resolved without a refund` : base;
}

function lateHeadline(status: string, reason: string | null): string {
  if (status === "cancelled") return "Paid after it was cancelled";
  if (status === "failed" && reason === "expired") return "Paid late (after it expired)";
  if (status === "failed") return `${invoiceStatusLabel(status, reason)}, then paid late`;
  return `${invoiceStatusLabel(status, reason)}, and paid again late`;
}

/** A payment that reached the invoice after it closed (`deposits.is_late`), as the page data reads it. */
export type LatePayment = {
  id: number;
  amount: bigint;
  currency: string;
  status: "seen" | "credited" | "unwound" | "held" | "rejected";
  seenAt: Date;
  creditedAt: Date | null;
};

/**
 * A late payment's steps on the timeline: when it was seen (it changes no status, so no status event
 * tells it), and when it was credited, which is what a refund of it may send back.
 */
export function latePaymentEvents(payment: LatePayment): { key: string; at: string; text: string }[] {
  const amount = dashboardAmount(payment.amount, payment.currency);
  const now: Record<LatePayment["status"], string> = {
    seen: "confirming",
    credited: "confirmed",
    unwound: "then dropped by the network: nothing was credited",
    held: "held for compliance review",
    rejected: "rejected in compliance review: nothing was credited",
  };
  const events = [
    {
      key: `late-${payment.id}`,
      at: payment.seenAt.toISOString(),
      text: `Payment of ${amount} seen after the invoice closed, ${now[payment.status]}`,
    },
  ];
  if (payment.creditedAt)
    events.push({
      key: `late-${payment.id}-credited`,
      at: payment.creditedAt.toISOString(),
      text: `Late payment of ${amount} credited to your balance: it is owed back to the customer`,
    });
  return events;
}
