"use client";

import { secondaryButtonClass } from "@/components/forms/field";
import { errorMessage, FormError } from "@/components/forms/form-error";
import { useSendTestCallback } from "@/components/query/use-callbacks";
import { describeAttemptError } from "./describe-attempt";

/** "Send test callback": a signed test body to the saved URL, and what the receiver answered, at once. */
export function TestCallback() {
  const test = useSendTestCallback();
  const result = test.data;
  return (
    <div className="mt-4">
      <button
        type="button"
        className={secondaryButtonClass}
        disabled={test.isPending}
        onClick={() => test.mutate()}
      >
        {test.isPending ? "Sending test callback…" : "Send test callback"}
      </button>
      <div role="status" className="mt-2 text-sm">
        {result && !test.isPending && (
          <div
            className={`rounded-md border p-3 ${
              result.delivered
                ? "border-emerald-300 dark:border-emerald-800"
                : "border-red-300 dark:border-red-800"
            }`}
          >
            <p className="font-medium">
              {result.delivered
                ? `Test callback delivered: HTTP ${result.http_status} in ${result.latency_ms} ms.`
                : `Test callback not delivered. ${describeAttemptError(result.error ?? "")}`}
            </p>
            <p className="mt-1 break-all text-xs">Sent to {result.url}</p>
            <ResponseExcerpt httpStatus={result.http_status} excerpt={result.response_excerpt} />
            <details className="mt-1 text-xs">
              <summary className="cursor-pointer">Body sent</summary>
              <pre className="mt-1 whitespace-pre-wrap break-all">{result.body}</pre>
            </details>
          </div>
        )}
      </div>
      <FormError message={test.error ? errorMessage(test.error) : null} />
    </div>
  );
}

/** The start of a receiver's answer, or why it is not shown. */
export function ResponseExcerpt({
  httpStatus,
  excerpt,
}: {
  httpStatus: number | null;
  excerpt: string | null;
}) {
  if (httpStatus === null) return null;
  if (excerpt === null)
    return (
      <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
        Its answer is not shown: Kassa keeps answers only from public addresses.
      </p>
    );
  return (
    <p className="mt-1 text-xs">
      Answer: <span className="whitespace-pre-wrap break-all font-mono">{excerpt || "(empty)"}</span>
    </p>
  );
}
