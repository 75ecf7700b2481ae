import type { CheckoutView } from "@/lib/checkout/checkout-view";
import { customerAmount, customerMoney, isStillOwed, receivedText } from "@/lib/checkout/present";
import { exactNote } from "@/lib/format-money";

/**
 * The figure the customer acts on, kept live: the invoice's fiat amount until a coin is chosen,
 * then the crypto amount (what the wallet must send) with fiat on a second line, and after a short
 * payment the remainder. Wallets asked for a fiat amount pay the wrong sum, so crypto leads (UX.md).
 */
export function AmountHeader({ view }: { view: CheckoutView }) {
  const fiat = customerAmount(view.amount, view.currency);
  // The invoice's fiat to its cents; its exact digits, when it has more, on hover.
  const fiatMoney = customerMoney(view.amount, view.currency);
  const fiatNote = fiatMoney ? exactNote(fiatMoney) : undefined;
  const hasPayCurrency = view.sender_currency !== null && view.sender_amount !== null;
  const isOwed = hasPayCurrency && isStillOwed(view);
  const total = hasPayCurrency ? customerAmount(view.sender_amount, view.sender_currency) : fiat;
  const isConverted = hasPayCurrency && view.sender_currency !== view.currency;
  // Paid more than was due: the header shows what arrived, the invoice's amount under it.
  const isOverpaid = view.status === "confirmed" && view.status_reason === "overpaid";
  const isClosedUnpaid = view.status === "failed" || view.status === "cancelled";
  const label = isOwed
    ? "Still due"
    : view.status === "confirmed"
      ? "Amount paid"
      : isClosedUnpaid
        ? "Amount that was due"
        : "Amount due";
  const figure = isOwed
    ? customerAmount(view.remaining_amount, view.sender_currency)
    : isOverpaid
      ? receivedText(view.payments.filter((p) => p.is_confirmed))
      : total;
  const converted = isConverted ? ` = ${fiat}` : "";
  const detail = isOverpaid
    ? `Invoice: ${total}${converted}`
    : isOwed
      ? `of ${total}${converted}`
      : isConverted
        ? `= ${fiat}`
        : null;
  return (
    <div className="mt-4 rounded-md bg-slate-50 px-4 py-3 dark:bg-slate-900">
      <div className="text-sm text-slate-600 dark:text-slate-400">{label}</div>
      <div
        className="break-all text-2xl font-semibold"
        data-testid="amount-due"
        title={hasPayCurrency ? undefined : fiatNote}
      >
        {figure}
      </div>
      {detail && (
        <div
          className="text-sm text-slate-600 dark:text-slate-400"
          data-testid="amount-fiat"
          title={fiatNote}
        >
          {detail}
        </div>
      )}
    </div>
  );
}
