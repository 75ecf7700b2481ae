import "server-only";

/**
 * The wire `error` of a closed invoice: the public API's own texts, so a merchant's handler that
 * matches them keeps working. The reason codes behind them stay for the dashboard and the checkout
 * (`additional_details.status_reason`). A cancel has no public text; Kassa's is documented.
 */
const TEXTS: Record<string, string> = {
  expired: "Timer expired. User not paid.",
  underpaid: "Timer expired. User paid less than requested.",
  partially_paid: "Timer expired. User paid less than requested.",
  processing_expired: "Timer expired. Transactions were in status processing too long.",
  cancelled_by_merchant: "Cancelled by the merchant.",
};

/** `""` while the invoice is open or paid; the text of its reason once it failed or was cancelled. */
export function invoiceError(status: string, reason: string | null): string {
  if (status !== "failed" && status !== "cancelled") return "";
  return TEXTS[reason ?? ""] ?? reason ?? "";
}
