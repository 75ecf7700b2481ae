"use client";

import { buttonClass } from "@/components/forms/field";
import { errorMessage, FormError } from "@/components/forms/form-error";
import type { useResendCallback, useRetryPendingCallbacks } from "@/components/query/use-callbacks";

/** The offer to send every pending callback now, e.g. right after the URL was fixed. */
export function RetryPending({
  pending,
  retry,
}: {
  pending: number;
  retry: ReturnType<typeof useRetryPendingCallbacks>;
}) {
  return (
    <div className="mt-2 rounded-md border border-amber-300 p-3 text-sm dark:border-amber-800">
      <p>
        {pending} callback{pending === 1 ? " is" : "s are"} still pending. Each goes to the URL saved now at
        its next try; send {pending === 1 ? "it" : "them"} at once instead:
      </p>
      <button
        type="button"
        className={`mt-2 ${buttonClass}`}
        disabled={retry.isPending}
        onClick={() => retry.mutate()}
      >
        {retry.isPending ? "Retrying…" : "Retry everything pending now"}
      </button>
      <FormError message={retry.error ? errorMessage(retry.error) : null} />
    </div>
  );
}

/** What the last resend did, announced politely. */
export function ResendState({ resend }: { resend: ReturnType<typeof useResendCallback> }) {
  return (
    <>
      <p role="status" className="mt-2 text-sm">
        {resend.isSuccess ? "Sending now. The log below updates as it goes." : ""}
      </p>
      <FormError message={resend.error ? errorMessage(resend.error) : null} />
    </>
  );
}
