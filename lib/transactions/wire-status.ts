import "server-only";

export type WireStatus = "cancelled" | "confirmed" | "declined" | "not_confirmed" | "pending";

/**
 * Maps internal statuses to those of `transactions/info` and deposit and withdrawal callbacks (spec
 * section 3): processing and `sending` → not_confirmed, error and rejected → cancelled, an approver's
 * decline stays `declined`; an invoice waiting for payment is `pending`, a failed one `declined`. Invoice
 * callbacks carry the invoice's own status instead (build-invoice-callback.ts).
 */
const MAP: Record<string, WireStatus> = {
  created: "pending",
  pending: "pending",
  processing: "not_confirmed",
  sending: "not_confirmed",
  verifying: "not_confirmed",
  confirmed: "confirmed",
  failed: "declined",
  cancelled: "cancelled",
  error: "cancelled",
  rejected: "cancelled",
  // A withdrawal an approver declined (or whose approval time ran out): the spec's `declined`.
  declined: "declined",
  // A deposit below the minimum: the public API reports it `cancelled` with its error text.
  below_minimum: "cancelled",
};

export function wireStatus(status: string): WireStatus {
  const mapped = MAP[status];
  if (!mapped) throw new Error(`no wire status for ${status}`);
  return mapped;
}
