"use client";

import { dashboardAmount } from "@/components/dashboard/dashboard-amount";
import { usePayoutBatches } from "@/components/query/use-payout-batches";
import { formatDateTime } from "@/lib/format-date-time";
import { batchStatusText } from "./batch-status";

/** The merchant's earlier bulk payouts, newest first, each linking to its payouts. */
export function BatchList() {
  const batches = usePayoutBatches();
  return (
    <section aria-labelledby="batches-heading" className="mt-8 max-w-4xl">
      <h2 id="batches-heading" className="text-xl font-semibold">
        Sent bulk payouts
      </h2>
      {batches.isPending && <p aria-live="polite">Loading bulk payouts…</p>}
      {batches.isError && <p role="alert">The list could not be loaded. It is retried in a moment.</p>}
      {batches.data?.batches.length === 0 && <p className="mt-1 text-sm">None yet.</p>}
      {batches.data && batches.data.batches.length > 0 && (
        <ul className="mt-2 divide-y divide-slate-200 border-y border-slate-200 dark:divide-slate-800 dark:border-slate-800">
          {batches.data.batches.map((batch) => (
            <li key={batch.id} className="py-2 text-sm">
              <a href={`/dashboard/payouts/bulk/${batch.id}`} className="font-medium underline">
                Bulk payout {batch.id}
              </a>{" "}
              <span className="break-all font-mono text-xs">{batch.reference}</span>
              <span className="block">
                {batch.payouts} payouts · {batchStatusText(batch.status)} ·{" "}
                {batch.totals.map((t) => dashboardAmount(t.total_debit, t.currency)).join(", ")} ·{" "}
                {formatDateTime(batch.created_at)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
