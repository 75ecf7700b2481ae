/**
 * One vocabulary for an invoice's state on the list and the invoice page: the stored status and the
 * reason it got there (lib/invoices/set-invoice-status.ts) become words a merchant acts on, and the
 * exceptions BTCPay flags (paid partly, paid over, paid late) become badges.
 */
export type InvoiceException = "underpaid" | "overpaid" | "late";

const LABELS: Record<string, string> = {
  "created:": "Awaiting currency choice",
  "pending:currency_fixed": "Awaiting payment",
  "pending:awaiting_remainder": "Partly paid, awaiting the rest",
  "pending:payment_removed": "Awaiting payment (a payment was dropped by the network)",
  "processing:payment_seen": "Payment seen, confirming",
  "confirmed:paid": "Paid",
  "confirmed:overpaid": "Paid (more than asked)",
  "confirmed:paid_within_tolerance": "Paid (short, within your underpayment tolerance)",
  "failed:expired": "Expired unpaid",
  "failed:underpaid": "Failed: underpaid",
  "failed:partially_paid": "Failed: partially paid",
  "failed:processing_expired": "Failed: payment never confirmed",
  "cancelled:cancelled_by_merchant": "Cancelled",
};

const BY_STATUS: Record<string, string> = {
  created: "Awaiting currency choice",
  pending: "Awaiting payment",
  processing: "Payment seen, confirming",
  confirmed: "Paid",
  failed: "Failed",
  cancelled: "Cancelled",
};

export function invoiceStatusLabel(status: string, reason: string | null): string {
  return LABELS[`${status}:${reason ?? ""}`] ?? BY_STATUS[status] ?? status;
}

/** The reasons an invoice was paid short (the list's "underpaid" filter and badge). */
export const UNDERPAID_REASONS = ["underpaid", "partially_paid", "awaiting_remainder"];

/** The exceptions an invoice carries: underpaid while money is still short, overpaid, a payment after closing. */
export function invoiceExceptions(input: {
  status: string;
  reason: string | null;
  hasLatePayment: boolean;
}): InvoiceException[] {
  const found: InvoiceException[] = [];
  if (UNDERPAID_REASONS.includes(input.reason ?? "")) found.push("underpaid");
  if (input.reason === "overpaid") found.push("overpaid");
  if (input.hasLatePayment) found.push("late");
  return found;
}

export const EXCEPTION_LABELS: Record<InvoiceException, string> = {
  underpaid: "Underpaid",
  overpaid: "Overpaid",
  late: "Paid late",
};

/** What the merchant should do about each exception, shown next to it on the invoice page. */
export const EXCEPTION_ADVICE: Record<InvoiceException, string> = {
  underpaid:
    "The customer sent less than asked. Wait for the rest while the invoice is open, or refund what arrived.",
  overpaid: "The customer sent more than asked. Refund the excess to them.",
  late: "A payment arrived after the invoice closed. It is credited to your balance: deliver, or refund it.",
};
