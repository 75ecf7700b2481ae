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
 * What the invoice owes its customer back and the refunds recorded against it. "Refund owed" is
 * offered only while the refunds standing leave something to send.
 */
export function RefundSection({
  refund,
  refunds,
  payCurrency,
  className,
}: {
  refund: ReturnType<typeof refundOwed>;
  refunds: readonly Refund[];
  payCurrency: string | null;
  className: string;
}) {
  return (
    <section aria-labelledby="refund" className={className}>
      <h2 id="refund" className="font-semibold">
        {refund && refund.left > 0n ? "Refund owed" : "Refunds"}
      </h2>
      {refund && (
        <p className="mt-1 text-sm">
          {refund.why} Owed: <span className="font-mono">{dashboardAmount(refund.owed, payCurrency)}</span>
          {refund.left > 0n
            ? refund.left < refund.owed
              ? `, of which ${dashboardAmount(refund.left, payCurrency)} is still to send.`
              : ". The customer was e-mailed to reply with a refund address: put it in the payout."
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
      {refund && refund.left > 0n && (
        <a href={refund.href} className={`mt-2 inline-block ${secondaryButtonClass}`}>
          Refund {dashboardAmount(refund.left, payCurrency)}
        </a>
      )}
    </section>
  );
}
