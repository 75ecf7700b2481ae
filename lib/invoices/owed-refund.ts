import "server-only";

/** Why an invoice owes its customer back: it failed short, was paid over, or was paid after it closed. */
export type OwedKind = "short" | "overpaid" | "late";

/**
 * What an invoice owes its customer back, in the coin paid: all received if it failed short, the excess
 * if overpaid, else (any other closed invoice) what payments after closing credited; late ones are in
 * `received` and the excess already. Null when nothing; refunds sent are not subtracted (owed-back.ts).
 * Never a payment rejected in review: docs/decisions/rejected-payments-not-claimable.md.
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
