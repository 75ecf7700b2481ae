"use client";

import { dashboardAmount } from "@/components/dashboard/dashboard-amount";
import { usePayoutBatches } from "@/components/query/use-payout-batches";
import { formatDateTime } from "@/lib/format-date-time";

/** Bulk payouts over a limit: each waits for one decision on all its payouts, taken on its own page. */
export function PendingBatches() {
  const batches = usePayoutBatches();
  const waiting = batches.data?.batches.filter((b) => b.status === "awaiting_approval") ?? [];
  if (waiting.length === 0) return null;
  return (
    <section aria-labelledby="pending-batches" className="mt-6">
      <h2 id="pending-batches" className="text-xl font-semibold">
        Bulk payouts waiting for a decision
      </h2>
      <ul className="mt-2 divide-y divide-slate-200 border-y border-slate-200 dark:divide-slate-800 dark:border-slate-800">
        {waiting.map((batch) => (
          <li key={batch.id} className="py-2 text-sm">
            <a href={`/dashboard/payouts/bulk/${batch.id}`} className="font-medium underline">
              Bulk payout {batch.id}: {batch.payouts} payouts
            </a>
            <span className="block">
              {batch.totals.map((t) => dashboardAmount(t.total_debit, t.currency)).join(", ")}
              {batch.created_by ? ` · sent by ${batch.created_by}` : " · sent through the API"}
              {batch.approval_expires_at ? ` · decide by ${formatDateTime(batch.approval_expires_at)}` : ""}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
