import { formatAmountShort } from "@/lib/money";

/**
 * What the merchant owes the customer back, and the payout form prefilled to send it: the excess of
 * an overpaid invoice, or everything received for one that failed short (the customer was told to
 * expect a full refund). The money sits on the balance in the invoice's currency, so a refund of a
 * converting invoice is paid from that balance, converted to the coin the customer paid with,
 * giving the amount to send (amount_to).
 */
export function refundOwed(input: {
  status: string;
  reason: string | null;
  invoiceCurrency: string;
  payCurrency: string | null;
  received: bigint;
  excess: bigint;
  foreignId: string;
  reference: string;
}): { amount: bigint; why: string; href: string } | null {
  if (!input.payCurrency) return null;
  const isShort =
    input.status === "failed" && (input.reason === "underpaid" || input.reason === "partially_paid");
  const isOver = input.status === "confirmed" && input.reason === "overpaid" && input.excess > 0n;
  if (!isShort && !isOver) return null;
  const amount = isShort ? input.received : input.excess;
  if (amount <= 0n) return null;
  const isConverting = input.invoiceCurrency !== input.payCurrency;
  const query = new URLSearchParams({
    currency: input.invoiceCurrency,
    ...(isConverting
      ? { convert_to: input.payCurrency, amount_to: formatAmountShort(amount) }
      : { amount: formatAmountShort(amount) }),
    foreign_id: `refund-${input.foreignId}`.slice(0, 100),
    end_user_reference: input.reference,
  });
  return {
    amount,
    why: isShort
      ? "The invoice failed short: everything the customer paid goes back to them."
      : "The customer paid more than asked: the excess goes back to them.",
    href: `/dashboard/payouts/new?${query}`,
  };
}
