"use client";

import { useState } from "react";
import { ConfirmBox } from "@/components/forms/confirm-box";
import { secondaryButtonClass } from "@/components/forms/field";
import { DashboardRequestError } from "@/components/query/dashboard-fetch";
import { useDeactivatePaymentLink } from "@/components/query/use-payment-links";
import { useRefreshWith } from "@/components/query/use-refresh-with";

/**
 * Deactivate asks once more (it cannot be undone), then the server asks the merchant to confirm it is
 * them (step-up) when their window is closed; the change is audited.
 */
export function DeactivateButton({ linkId }: { linkId: number }) {
  const { isRefreshing, refreshWith } = useRefreshWith();
  const deactivate = useDeactivatePaymentLink(linkId);
  const [isAsking, setIsAsking] = useState(false);
  const [message, setMessage] = useState("");
  const confirm = async () => {
    setMessage("");
    try {
      await deactivate.mutateAsync();
      refreshWith(() => {
        setIsAsking(false);
        setMessage("Payment link deactivated.");
      });
    } catch (error) {
      setMessage(
        error instanceof DashboardRequestError ? error.message : "Could not deactivate it; try again.",
      );
    }
  };
  return (
    <div>
      {isAsking ? (
        <ConfirmBox
          confirmLabel="Yes, deactivate the link"
          busyLabel="Deactivating…"
          keepLabel="Keep it"
          isBusy={deactivate.isPending || isRefreshing}
          onConfirm={confirm}
          onKeep={() => setIsAsking(false)}
        >
          Deactivate this payment link? Customers who open it are told it can no longer be paid; this cannot
          be undone. Invoices customers already started carry on and are credited as usual.
        </ConfirmBox>
      ) : (
        <button type="button" className={secondaryButtonClass} onClick={() => setIsAsking(true)}>
          Deactivate link
        </button>
      )}
      <p role="status" className="mt-1 text-sm">
        {message}
      </p>
    </div>
  );
}
