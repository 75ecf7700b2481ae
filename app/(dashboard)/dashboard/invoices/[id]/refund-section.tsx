import { dashboardAmount } from "@/components/dashboard/dashboard-amount";
import { secondaryButtonClass } from "@/components/forms/control-classes";
import type { Refund } from "@/lib/withdrawals/list-refunds";
import type { refundOwed } from "./refund-owed";

const REFUND_STATUS: Record<string, string> = {
  pending: "waiting for approval",
  processing: "being sent",
  sending: "being sent",
  confirmed: "sent",
  error: "failed, funds returned",
  rejected: "rejected, funds returned",
  declined: "declined, funds returned",
};

/**
 * What the invoice owes its customer back in `currency` and the refunds recorded against it.
 * "Refund owed" is offered only while the refunds standing leave something to send. A coin paid to
 * an address shown before the customer switched coins (`isOtherCoin`) has a section of its own,
 * named by the coin; the invoice's own section lists every refund.
 */
export function RefundSection({
  refund,
  refunds,
  currency,
  isOtherCoin = false,
  issue,
  className,
}: {
  refund: ReturnType<typeof refundOwed>;
  refunds: readonly Refund[];
  currency: string | null;
  isOtherCoin?: boolean;
  /** "Issue refund" (the customer claims it): in place of the payout form's link. */
  issue?: React.ReactNode;
  className: string;
}) {
  const isOwed = refund !== null && refund.left > 0n;
  const id = isOtherCoin ? `refund-${currency}` : "refund";
  const title = isOtherCoin
    ? isOwed
      ? `Refund owed in ${currency}`
      : `Refunded in ${currency}`
    : isOwed
      ? "Refund owed"
      : "Refunds";
  return (
    <section aria-labelledby={id} className={className}>
      <h2 id={id} className="font-semibold">
        {title}
      </h2>
      {refund && (
        <p className="mt-1 text-sm">
          {isOtherCoin
            ? `Paid in ${currency} to the address shown before the customer switched coins.`
            : refund.why}{" "}
          Owed: <span className="font-mono">{dashboardAmount(refund.owed, currency)}</span>
          {isOwed && refund.left < refund.owed
            ? `, of which ${dashboardAmount(refund.left, currency)} is still to send.`
            : isOtherCoin
              ? "."
              : isOwed
                ? issue
                  ? ". Issue a refund: the customer is e-mailed a link to claim it with their own address."
                  : ". Send it as a payout to the address the customer gives you."
                : ". The refunds below cover it."}
        </p>
      )}
      {refunds.length > 0 && (
        <ul className="mt-2 space-y-1 text-sm">
          {refunds.map((item) => (
            <li key={item.id}>
              <a href={`/dashboard/transactions/${item.id}`} className="underline">
                Payout {item.id}
              </a>
              : <span className="font-mono">{dashboardAmount(item.amount, item.currency)}</span>,{" "}
              {REFUND_STATUS[item.status] ?? item.status}
            </li>
          ))}
        </ul>
      )}
      {issue}
      {/*
        The payout form prefilled: sending it yourself to an address you already have stays possible.
        Beside "Issue refund" it says how it differs, so the two are not read as one action twice.
      */}
      {refund && isOwed && (
        <a href={refund.href} className={`mt-2 inline-block ${secondaryButtonClass}`}>
          {issue
            ? `Send ${dashboardAmount(refund.left, currency)} to an address you have`
            : `Refund ${dashboardAmount(refund.left, currency)}`}
        </a>
      )}
    </section>
  );
}
