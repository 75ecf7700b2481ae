"use client";

import { useState } from "react";
import { ConfirmBox } from "@/components/forms/confirm-box";
import { secondaryButtonClass, selectClass } from "@/components/forms/field";
import { DashboardRequestError, dashboardFetch } from "@/components/query/dashboard-fetch";
import { useRefreshWith } from "@/components/query/use-refresh-with";

const REASONS = [
  { value: "paid_outside", label: "Paid outside Kassa" },
  { value: "customer_declined", label: "Customer declined a refund" },
  { value: "too_small", label: "Too small to refund" },
  { value: "other", label: "Other (say why in the note)" },
] as const;

/**
 * "Mark resolved": closes what the invoice owes its customer without a refund. It cannot be undone
 * and no refund can follow, so the form asks once more, saying so; the server asks for the
 * step-up confirmation (a sensitive action) through dashboardFetch. Open refund links are cancelled
 * with it, and it says so; while a claimed refund's payout is on its way it is not offered.
 */
export function ResolveSection({
  invoiceId,
  openRefunds,
  isPayoutUnderWay,
  className,
}: {
  invoiceId: number;
  /** Refund links offered and not claimed: resolving cancels them. */
  openRefunds: number;
  /** A claimed refund's payout is on its way: the invoice cannot be resolved under it. */
  isPayoutUnderWay: boolean;
  className: string;
}) {
  const { isRefreshing, refreshWith } = useRefreshWith();
  const [reason, setReason] = useState<(typeof REASONS)[number]["value"]>("paid_outside");
  const [note, setNote] = useState("");
  const [isAsking, setIsAsking] = useState(false);
  const [isPending, setIsPending] = useState(false);
  const [message, setMessage] = useState("");
  const resolve = async () => {
    setIsPending(true);
    setMessage("");
    try {
      await dashboardFetch(`/api/dashboard/invoices/${invoiceId}/resolve`, {
        method: "POST",
        body: { reason, note },
      });
      refreshWith(() => {
        setIsAsking(false);
        setMessage("Invoice resolved.");
      });
    } catch (error) {
      setMessage(error instanceof DashboardRequestError ? error.message : "Could not resolve it; try again.");
    } finally {
      setIsPending(false);
    }
  };
  const needsNote = reason === "other" && note.trim() === "";
  return (
    <section aria-labelledby="resolve" className={className}>
      <h2 id="resolve" className="font-semibold">
        Close without a refund
      </h2>
      <p className="mt-1 text-sm">
        When the customer needs no refund (you settled it another way, they declined it, or it is too small to
        send), mark the invoice resolved. The money stays on your balance; this cannot be undone.
        {openRefunds > 0 &&
          ` Resolving cancels the open refund ${openRefunds === 1 ? "link" : `links (${openRefunds})`}: the customer can no longer claim it.`}
      </p>
      {isPayoutUnderWay && (
        <p className="mt-1 text-sm" data-testid="resolve-blocked">
          The customer claimed a refund and its payout is on its way: you can resolve the invoice once the
          payout is sent or returned.
        </p>
      )}
      <div className="mt-2 grid max-w-md gap-2 text-sm">
        <label htmlFor="resolve-reason" className="font-medium">
          Reason
        </label>
        <select
          id="resolve-reason"
          className={selectClass}
          value={reason}
          onChange={(event) => setReason(event.target.value as typeof reason)}
        >
          {REASONS.map((r) => (
            <option key={r.value} value={r.value}>
              {r.label}
            </option>
          ))}
        </select>
        <label htmlFor="resolve-note" className="font-medium">
          Note {reason === "other" ? "(required)" : "(optional)"}
        </label>
        <textarea
          id="resolve-note"
          maxLength={500}
          rows={2}
          className={selectClass}
          value={note}
          onChange={(event) => setNote(event.target.value)}
        />
      </div>
      {isAsking ? (
        <ConfirmBox
          className="mt-2"
          confirmLabel="Yes, mark resolved"
          busyLabel="Resolving…"
          keepLabel="Not now"
          isBusy={isPending || isRefreshing}
          onConfirm={resolve}
          onKeep={() => setIsAsking(false)}
        >
          Mark this invoice resolved? No refund can be issued for it afterwards
          {openRefunds > 0 ? ", and the open refund link stops working." : "."}
        </ConfirmBox>
      ) : isPayoutUnderWay ? null : (
        <button
          type="button"
          className={`mt-2 ${secondaryButtonClass}`}
          disabled={needsNote}
          onClick={() => setIsAsking(true)}
        >
          Mark resolved
        </button>
      )}
      <p role="status" className="mt-1 text-sm">
        {needsNote ? "Say why in the note." : message}
      </p>
    </section>
  );
}
