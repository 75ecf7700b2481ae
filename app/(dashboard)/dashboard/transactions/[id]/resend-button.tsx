"use client";

import { secondaryButtonClass } from "@/components/forms/field";
import { useResendCallback } from "@/components/query/use-callbacks";

export function ResendButton({ callbackId }: { callbackId: number }) {
  const resend = useResendCallback();
  return (
    <span>
      <button
        type="button"
        className={secondaryButtonClass}
        disabled={resend.isPending}
        onClick={() => resend.mutate(callbackId)}
      >
        {resend.isPending ? "Queueing…" : "Resend"}
      </button>
      <span aria-live="polite" className="ml-2 text-xs">
        {resend.isSuccess
          ? "Sending now: see Callbacks for the answer."
          : resend.isError
            ? "Could not resend it; try again."
            : ""}
      </span>
    </span>
  );
}
