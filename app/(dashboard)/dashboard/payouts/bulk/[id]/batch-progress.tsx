"use client";

import { useState } from "react";
import { dashboardAmount } from "@/components/dashboard/dashboard-amount";
import { transactionStatus } from "@/components/dashboard/transaction-status";
import { buttonClass, secondaryButtonClass } from "@/components/forms/field";
import { DashboardRequestError } from "@/components/query/dashboard-fetch";
import { useDecidePayoutBatch, usePayoutBatch } from "@/components/query/use-payout-batches";
import { HeaderRow } from "@/components/ui/header-row";
import { ScrollRegion } from "@/components/ui/scroll-region";
import { formatDateTime } from "@/lib/format-date-time";
import { batchStatusText } from "../batch-status";

const FINAL = new Set(["confirmed", "declined", "error", "rejected"]);

/**
 * One bulk payout as it goes: each payout's status and txid, asked again every 2 seconds until all
 * are final; one approval for the whole batch when it waits for one; the result file to download.
 */
export function BatchProgress({ id, canApprove }: { id: number; canApprove: boolean }) {
  const batch = usePayoutBatch(id);
  const decide = useDecidePayoutBatch(id);
  const [notice, setNotice] = useState<string | null>(null);

  const decideAs = async (decision: "approve" | "decline") => {
    setNotice(null);
    try {
      const { decided } = await decide.mutateAsync(decision);
      setNotice(
        decision === "approve"
          ? `Approved: ${decided} payouts are being sent.`
          : `Declined: the funds of ${decided} payouts are back in your balance.`,
      );
      await batch.refetch();
    } catch (caught) {
      setNotice(
        caught instanceof DashboardRequestError
          ? (Object.values(caught.fields)[0] ?? caught.message)
          : "Something went wrong.",
      );
    }
  };

  if (batch.isPending)
    return (
      <p aria-live="polite" className="mt-4">
        Loading bulk payout {id}…
      </p>
    );
  if (batch.isError)
    return (
      <>
        <h1 className="text-2xl font-bold tracking-tight">Bulk payout {id}</h1>
        <p role="alert" className="mt-2">
          {batch.error instanceof DashboardRequestError && batch.error.status === 404
            ? "There is no such bulk payout in your account."
            : "It could not be loaded. It is retried in a moment."}
        </p>
      </>
    );
  const b = batch.data;
  const done = b.payouts.filter((p) => FINAL.has(p.internal_status)).length;
  const isMoving = b.status === "processing" || b.status === "awaiting_approval";
  return (
    <>
      <h1 className="text-2xl font-bold tracking-tight">Bulk payout {b.id}</h1>
      <p className="mt-1 break-all text-sm">
        Reference <span className="font-mono">{b.reference}</span> · sent{" "}
        {formatDateTime(new Date(b.created_at * 1000))}
      </p>
      <p className="mt-2 font-medium" aria-live="polite">
        {batchStatusText(b.status)}: {done} of {b.payouts.length} payouts done
        {isMoving && b.status === "processing" ? " (updating by itself)" : ""}.
      </p>
      <p className="mt-1 text-sm">
        Taken from your balances:{" "}
        {b.totals
          .map(
            (t) =>
              `${dashboardAmount(t.total_debit, t.currency)} (fees ${dashboardAmount(t.fee, t.currency)})`,
          )
          .join(", ")}
      </p>
      {b.status === "awaiting_approval" && (
        <div className="mt-3 rounded-md border border-amber-400 p-3 text-sm dark:border-amber-600">
          <p>
            This bulk payout is over one of your withdrawal limits (its total counts) and waits for one
            approval of all its payouts. Its funds are reserved meanwhile.
          </p>
          {canApprove && b.can_decide ? (
            <div className="mt-2 flex flex-wrap gap-2">
              <button
                type="button"
                className={buttonClass}
                disabled={decide.isPending}
                onClick={() => void decideAs("approve")}
              >
                Approve all {b.payouts.length} payouts
              </button>
              <button
                type="button"
                className={secondaryButtonClass}
                disabled={decide.isPending}
                onClick={() => void decideAs("decline")}
              >
                Decline
              </button>
            </div>
          ) : (
            <p className="mt-1">
              {b.can_decide
                ? "A user who may approve payouts decides it."
                : "You sent it, so another user of your account approves or declines it."}
            </p>
          )}
        </div>
      )}
      <p className="mt-2 text-sm font-medium" role="status">
        {notice}
      </p>
      <p className="mt-2 text-sm">
        <a href={`/api/dashboard/payout-batches/${b.id}/result`} download className="underline">
          Download the result (CSV)
        </a>{" "}
        with each payout&apos;s id, status and txid.
      </p>
      <ScrollRegion label="Payouts of this bulk payout" className="mt-3">
        <table className="w-full text-left text-sm">
          <HeaderRow columns={["Line", "Payout", "Status"]} />
          <tbody>
            {b.payouts.map((p) => (
              <tr key={p.id} className="border-t border-slate-200 align-top dark:border-slate-800">
                <td className="py-1 pr-3 font-mono">{p.row}</td>
                <td className="py-1 pr-3">
                  <a href={`/dashboard/transactions/${p.id}`} className="underline">
                    {dashboardAmount(p.receiver_amount, p.receiver_currency)}
                  </a>
                  <span className="block break-all font-mono text-xs">{p.address}</span>
                  <span className="block break-all text-xs">
                    {typeof p.foreign_id === "string" ? p.foreign_id : JSON.stringify(p.foreign_id)}
                  </span>
                </td>
                <td className="py-1 pr-3">
                  {transactionStatus(p.type, p.internal_status)}
                  {p.txid && <span className="block break-all font-mono text-xs">{p.txid}</span>}
                  {p.error && <span className="block text-xs">{p.error}</span>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
    </>
  );
}
