import { invoiceStatusLabel } from "./invoice-status";

const isPayout = (type: string) => type.startsWith("withdrawal");

/**
 * A transaction's status in a merchant's words, for its kind: what it waits for, or how it ended.
 * Invoices say it as the invoice pages do. A payout `processing` is accepted and about to be handed
 * to the network; once `sending`, it waits for the network's confirmations, as a deposit does.
 */
export function transactionStatus(type: string, status: string): string {
  if (type === "invoice") return invoiceStatusLabel(status, null);
  switch (status) {
    case "pending":
      return isPayout(type) ? "Waiting for approval" : "Waiting";
    case "processing":
      return isPayout(type) ? "About to be sent" : "Waiting for confirmations";
    case "sending":
      return "Waiting for confirmations";
    case "verifying":
      return "Held for review";
    case "confirmed":
      return "Confirmed";
    case "failed":
      return "Failed";
    case "error":
      return "Refused by the network (funds returned)";
    case "rejected":
      return isPayout(type) ? "Rejected (funds returned)" : "Rejected";
    case "declined":
      return "Declined (funds returned)";
    case "below_minimum":
      return "Below minimum (held, not credited)";
    default:
      return status;
  }
}
