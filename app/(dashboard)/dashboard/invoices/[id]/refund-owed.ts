import { type OwedKind, owedRefund } from "@/lib/invoices/owed-refund";
import { formatAmountShort } from "@/lib/money";

const WHY: Record<OwedKind, string> = {
  short: "The invoice failed short: everything the customer paid goes back to them.",
  overpaid: "The customer paid more than asked: the excess goes back to them.",
  late: "A payment arrived after the invoice had closed: it was credited to you, and goes back to the customer.",
};

/**
 * What the merchant still owes the customer back (lib/invoices/owed-refund.ts, less the refunds
 * already standing), and the payout form prefilled to send it, recorded against the invoice
 * (refund_of). The money sits on the balance in the invoice's currency, so a refund of a converting
 * invoice is paid from that balance, converted to the coin the customer paid with, giving the
 * amount to send (amount_to).
 */
export function refundOwed(input: {
  invoiceId: number;
  status: string;
  reason: string | null;
  invoiceCurrency: string;
  payCurrency: string | null;
  received: bigint;
  excess: bigint;
  late: bigint;
  refunded: bigint;
  foreignId: string;
}): { owed: bigint; left: bigint; why: string; href: string } | null {
  const owed = owedRefund(input);
  if (!owed || !input.payCurrency) return null;
  const left = owed.amount > input.refunded ? owed.amount - input.refunded : 0n;
  const isConverting = input.invoiceCurrency !== input.payCurrency;
  const query = new URLSearchParams({
    currency: input.invoiceCurrency,
    ...(isConverting
      ? { convert_to: input.payCurrency, amount_to: formatAmountShort(left) }
      : { amount: formatAmountShort(left) }),
    foreign_id: `refund-${input.foreignId}${input.refunded > 0n ? `-${Date.now().toString(36)}` : ""}`.slice(
      0,
      100,
    ),
    // Not the invoice customer's reference: a payout's end_user_reference names its sender (the
    // merchant here, a company), and the customer identity rule refuses one reference for two
    // different senders; one reference per refunded invoice keeps the prefilled payout valid.
    end_user_reference: `refund-${input.invoiceId}`,
    refund_of: String(input.invoiceId),
  });
  return {
    owed: owed.amount,
    left,
    why: WHY[owed.kind],
    href: `/dashboard/payouts/new?${query}`,
  };
}
