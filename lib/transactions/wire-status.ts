import "server-only";

export type WireStatus = "cancelled" | "confirmed" | "declined" | "not_confirmed" | "pending";

/**
 * The one place internal statuses become the statuses of `transactions/info` and of deposit and
 * withdrawal callbacks (spec section 3): processing (and a withdrawal's `sending`) → not_confirmed,
 * error and rejected → cancelled; a withdrawal declined by an approver stays `declined`. An invoice
 * still waiting for its payment is `pending`; one that failed (expired, underpaid) is `declined`.
 * Invoice callbacks carry the invoice's own status instead, as the public API's do
 * (lib/callbacks/build-invoice-callback.ts).
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
