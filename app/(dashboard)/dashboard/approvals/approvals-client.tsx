"use client";

import { useState } from "react";
import { usePendingWithdrawals } from "@/components/query/use-approvals";
import { LimitsSection } from "./limits-section";
import { PendingBatches } from "./pending-batches";
import { PendingItem } from "./pending-item";

export function ApprovalsClient({
  currencies,
  canManageLimits,
}: {
  currencies: string[];
  /** Limits are set by owners and admins (lib/team/permissions.ts); other approvers do not see the form. */
  canManageLimits: boolean;
}) {
  const pending = usePendingWithdrawals();
  const [notice, setNotice] = useState<string | null>(null);
  return (
    <>
      <h1 className="text-2xl font-bold tracking-tight">Approvals</h1>
      <p className="mt-1 max-w-2xl text-sm">
        Payouts over your withdrawal limits wait here. Approve one to send it, or decline it to return its
        funds to your balance. The user who asked for a payout cannot decide on it.
      </p>
      <p className="mt-2 text-sm font-medium" aria-live="polite">
        {notice}
      </p>
      <h2 className="mt-6 text-xl font-semibold">Waiting for a decision</h2>
      {pending.isPending && <p aria-live="polite">Loading withdrawals…</p>}
      {pending.isError && <p role="alert">The list could not be loaded. It is retried in a moment.</p>}
      {pending.data && pending.data.data.length === 0 && (
        <p className="mt-2 text-sm">Nothing waits for approval.</p>
      )}
      {pending.data && pending.data.data.length > 0 && (
        <ul className="mt-2 divide-y divide-slate-200 border-y border-slate-200 dark:divide-slate-800 dark:border-slate-800">
          {pending.data.data.map((item) => (
            <PendingItem key={item.id} item={item} onDecided={setNotice} />
          ))}
        </ul>
      )}
      <PendingBatches />
      {canManageLimits && <LimitsSection currencies={currencies} />}
    </>
  );
}
