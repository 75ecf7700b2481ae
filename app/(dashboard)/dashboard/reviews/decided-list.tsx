"use client";

import { dashboardAmount } from "@/components/dashboard/dashboard-amount";
import { useReviews } from "@/components/query/use-reviews";
import { ScrollRegion } from "@/components/ui/scroll-region";
import { formatDateTime } from "@/lib/format-date-time";

/** The recent decisions, newest first: what was released or rejected, by whom and when. */
export function DecidedList() {
  const decided = useReviews("decided");
  return (
    <section aria-labelledby="decided-title" className="mt-10">
      <h2 id="decided-title" className="text-xl font-semibold">
        Recent decisions
      </h2>
      {decided.isPending && <p aria-live="polite">Loading decisions…</p>}
      {decided.data && decided.data.data.length === 0 && <p className="mt-2 text-sm">No decision yet.</p>}
      {decided.data && decided.data.data.length > 0 && (
        <ScrollRegion label="Recent decisions" className="mt-3">
          <table className="min-w-full text-left text-sm">
            <caption className="sr-only">Payments released or rejected after review</caption>
            <thead>
              <tr>
                <th scope="col" className="py-1 pr-4">
                  Payment
                </th>
                <th scope="col" className="py-1 pr-4">
                  Score
                </th>
                <th scope="col" className="py-1 pr-4">
                  Decision
                </th>
                <th scope="col" className="py-1 pr-4">
                  By
                </th>
                <th scope="col" className="py-1 pr-4">
                  When
                </th>
              </tr>
            </thead>
            <tbody>
              {decided.data.data.map((item) => (
                <tr key={item.id} className="border-t border-slate-200 dark:border-slate-800">
                  <td className="whitespace-nowrap py-1 pr-4 font-mono">
                    {dashboardAmount(item.amount, item.currency)}
                  </td>
                  <td className="py-1 pr-4">{item.score}</td>
                  <td className="py-1 pr-4">
                    {item.status === "released" ? "Released" : "Rejected"}
                    {item.chain_removal && (
                      <span className="block text-xs">
                        {item.chain_removal === "nothing_arrived"
                          ? "A reorganisation removed its block first: nothing arrived, nothing to refund."
                          : item.status === "released"
                            ? "A reorganisation has removed its block since it was credited: the operator is told."
                            : "A reorganisation has removed its block: its coins are gone, it is not refunded."}
                      </span>
                    )}
                    {item.refund_txid && (
                      <span className="block break-all text-xs">refunded, txid {item.refund_txid}</span>
                    )}
                  </td>
                  <td className="py-1 pr-4">{item.decided_by ?? "A removed user"}</td>
                  <td className="py-1 pr-4">{item.decided_at && formatDateTime(item.decided_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
    </section>
  );
}
