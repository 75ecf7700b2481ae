import "server-only";

/**
 * What an invoice owes its customer back, in the coin they paid with: the excess of an overpaid
 * invoice, or everything received for one that failed short (the customer was told to expect a full
 * refund). Null when nothing is owed. Refunds already sent are not subtracted here (refundLeft).
 */
export function owedRefund(input: {
  status: string;
  reason: string | null;
  payCurrency: string | null;
  received: bigint;
  excess: bigint;
}): { amount: bigint; isShort: boolean } | null {
  if (!input.payCurrency) return null;
  const isShort =
    input.status === "failed" && (input.reason === "underpaid" || input.reason === "partially_paid");
  const isOver = input.status === "confirmed" && input.reason === "overpaid" && input.excess > 0n;
  if (!isShort && !isOver) return null;
  const amount = isShort ? input.received : input.excess;
  return amount > 0n ? { amount, isShort } : null;
}
