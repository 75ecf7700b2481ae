"use client";

import { Shown } from "@/components/ui/money";
import type { CheckoutView } from "@/lib/checkout/checkout-view";
import { customerAmount, customerCode, customerMoney, receivedText } from "@/lib/checkout/present";
import { formatRateText } from "@/lib/format-money";

/** A unix time as UTC, the same on the server and in the browser (labelled, so never ambiguous). */
function utc(seconds: number | null): string {
  return seconds === null
    ? ""
    : `${new Date(seconds * 1000).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** What the customer keeps: what was invoiced, what was paid at which rate, each transaction; printable. */
export function Receipt({ view }: { view: CheckoutView }) {
  const pay = view.sender_currency ?? "";
  const row = "flex flex-wrap justify-between gap-x-4 py-1";
  return (
    <section
      aria-labelledby="receipt"
      className="mt-6 rounded-md border border-slate-200 px-4 py-3 dark:border-slate-700"
    >
      <div className="flex items-center justify-between gap-2">
        <h2 id="receipt" className="font-semibold">
          Receipt
        </h2>
        <button
          type="button"
          onClick={() => window.print()}
          className="rounded-md border border-slate-300 px-3 py-1 text-sm font-medium hover:bg-slate-50 print:hidden dark:border-slate-600 dark:hover:bg-slate-800"
        >
          Print
        </button>
      </div>
      <dl className="mt-2 text-sm">
        <div className={row}>
          <dt>{view.title}</dt>
          <dd className="font-mono">
            <CustomerMoney wire={view.amount} code={view.currency} />
          </dd>
        </div>
        <div className={row}>
          <dt>Paid</dt>
          <dd className="font-mono">{receivedText(view.payments.filter((p) => p.is_confirmed))}</dd>
        </div>
        {view.rate !== null && pay !== view.currency && (
          <div className={row}>
            <dt>Rate</dt>
            <dd className="font-mono">
              <Shown money={formatRateText(view.rate, customerCode(pay), view.currency)} />
            </dd>
          </div>
        )}
      </dl>
      <h3 className="mt-3 text-sm font-semibold">Transactions</h3>
      <ul className="text-sm">
        {view.payments.map((p) => (
          <li key={p.txid} className="border-t border-slate-200 py-2 dark:border-slate-700">
            <div className={row}>
              <span className="font-mono">{customerAmount(p.amount, p.currency)}</span>
              <span>{utc(p.seen_at)}</span>
            </div>
            <div className="break-all font-mono text-xs" data-testid="receipt-txid">
              {p.txid}
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

function CustomerMoney({ wire, code }: { wire: string | null; code: string | null }) {
  const money = customerMoney(wire, code);
  return money && <Shown money={money} />;
}
