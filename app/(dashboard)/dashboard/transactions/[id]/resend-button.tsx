"use client";

import { useState } from "react";
import { secondaryButtonClass } from "@/components/forms/field";
import { dashboardFetch } from "@/lib/dashboard/client-api";

export function ResendButton({ callbackId }: { callbackId: number }) {
  const [state, setState] = useState<"idle" | "sending" | "sent" | "failed">("idle");
  return (
    <span>
      <button
        type="button"
        className={secondaryButtonClass}
        disabled={state === "sending"}
        onClick={async () => {
          setState("sending");
          try {
            await dashboardFetch(`/api/dashboard/callbacks/${callbackId}/resend`, { body: {} });
            setState("sent");
          } catch {
            setState("failed");
          }
        }}
      >
        {state === "sending" ? "Queueing…" : "Resend"}
      </button>
      <span aria-live="polite" className="ml-2 text-xs">
        {state === "sent"
          ? "Queued for delivery."
          : state === "failed"
            ? "Could not queue it; try again."
            : ""}
      </span>
    </span>
  );
}
