import "server-only";

/** Why an invoice owes its customer back: it failed short, was paid over, or was paid after it closed. */
export type OwedKind = "short" | "overpaid" | "late";

/**
 * What an invoice owes its customer back, in the coin they paid with: everything received for one
 * that failed short (the customer was told to expect a full refund), the excess of an overpaid one,
 * or, for any other closed invoice, what the payments that arrived after it closed credited (paid
 * late, after a cancel, or again once paid). A late payment in the coin paid is in `received` and in
 * the excess already, so it is counted only when neither applies. Null when nothing is owed. Refunds
 * already sent are not subtracted here (lib/refunds/owed-back.ts does). A payment rejected in review is
 * never owed here: docs/decisions/rejected-payments-not-claimable.md.
 */
export function owedRefund(input: {
  status: string;
  reason: string | null;
  payCurrency: string | null;
  received: bigint;
  excess: bigint;
  /** What payments that arrived after the invoice closed credited, in the coin paid. */
  late: bigint;
}): { amount: bigint; kind: OwedKind } | null {
  if (!input.payCurrency) return null;
  const isShort =
    input.status === "failed" && (input.reason === "underpaid" || input.reason === "partially_paid");
  const isOver = input.status === "confirmed" && input.reason === "overpaid" && input.excess > 0n;
  const [amount, kind]: [bigint, OwedKind] = isShort
    ? [input.received, "short"]
    : isOver
      ? [input.excess, "overpaid"]
      : [input.late, "late"];
  return amount > 0n ? { amount, kind } : null;
}
