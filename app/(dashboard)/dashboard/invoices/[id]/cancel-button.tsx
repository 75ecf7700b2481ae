"use client";

import { useState } from "react";
import { ConfirmBox } from "@/components/forms/confirm-box";
import { secondaryButtonClass } from "@/components/forms/field";
import { DashboardRequestError, dashboardFetch } from "@/components/query/dashboard-fetch";
import { useRefreshWith } from "@/components/query/use-refresh-with";

/**
 * Cancel asks once more, since it cannot be undone; a payment already on its way is still credited
 * when it confirms (the public API's rule), which the question says.
 */
export function CancelButton({ invoiceId, isOpen }: { invoiceId: number; isOpen: boolean }) {
  const { isRefreshing, refreshWith } = useRefreshWith();
  const [isAsking, setIsAsking] = useState(false);
  const [isPending, setIsPending] = useState(false);
  const [message, setMessage] = useState("");
  const cancel = async () => {
    setIsPending(true);
    setMessage("");
    try {
      await dashboardFetch(`/api/dashboard/invoices/${invoiceId}/cancel`, { method: "POST", body: {} });
      refreshWith(() => {
        setIsAsking(false);
        setMessage("Invoice cancelled.");
      });
    } catch (error) {
      setMessage(error instanceof DashboardRequestError ? error.message : "Could not cancel it; try again.");
    } finally {
      setIsPending(false);
    }
  };
  return (
    <div>
      {!isOpen ? null : isAsking ? (
        <ConfirmBox
          confirmLabel="Yes, cancel the invoice"
          busyLabel="Cancelling…"
          keepLabel="Keep it"
          isBusy={isPending || isRefreshing}
          onConfirm={cancel}
          onKeep={() => setIsAsking(false)}
        >
          Cancel this invoice? The customer can no longer pay it. A payment already sent is still credited to
          your balance when it confirms.
        </ConfirmBox>
      ) : (
        <button type="button" className={secondaryButtonClass} onClick={() => setIsAsking(true)}>
          Cancel invoice
        </button>
      )}
      <p role="status" className="mt-1 text-sm">
        {message}
      </p>
    </div>
  );
}
