"use client";

import { IntentLink } from "@/components/dashboard/intent-link";
import { secondaryButtonClass } from "@/components/forms/field";
import { errorMessage, FormError } from "@/components/forms/form-error";
import { type CallbackDelivery, useCallbackLog, useResendCallback } from "@/components/query/use-callbacks";
import { formatDateTime } from "@/lib/format-date-time";
import { describeAttemptError } from "./describe-attempt";
import { ResendState } from "./retry-pending";
import { ResponseExcerpt } from "./test-callback";

const time = formatDateTime;

/** What a callback is doing now, truthfully: never a retry time that has already passed. */
function stateLine(c: CallbackDelivery): string {
  const tries = `${c.attempts} attempt${c.attempts === 1 ? "" : "s"}`;
  if (c.status === "delivered")
    return `Delivered${c.delivered_at ? ` ${time(c.delivered_at)}` : ""} · ${tries}`;
  if (c.status === "failed") return `Gave up after ${tries}. Resend it once your endpoint works.`;
  if (c.waiting_for)
    return `Waits for callback ${c.waiting_for.id}${
      c.waiting_for.event ? ` (${c.waiting_for.event})` : ""
    } of the same transaction to be delivered first, so they arrive in order · ${tries}`;
  if (c.is_due || !c.next_attempt_at) return `Due now · ${tries}`;
  return `Next try ${time(c.next_attempt_at)} · ${tries}`;
}

function statusLabel(c: CallbackDelivery) {
  if (c.status === "delivered")
    return <span className="text-emerald-700 dark:text-emerald-300">✓ Delivered</span>;
  if (c.status === "failed") return <span className="text-red-700 dark:text-red-300">✗ Failed</span>;
  return <span className="text-amber-800 dark:text-amber-300">… Pending</span>;
}

function Attempts({ c }: { c: CallbackDelivery }) {
  return (
    <details className="mt-1">
      <summary className="cursor-pointer text-xs underline">Attempts and payload</summary>
      {c.attempt_log.length === 0 ? (
        <p className="mt-1 text-xs">No attempt yet.</p>
      ) : (
        <ol className="mt-1 space-y-2 text-xs">
          {c.attempt_log.map((a) => (
            <li key={a.id} className="border-l-2 border-slate-300 pl-2 dark:border-slate-700">
              <p>
                {time(a.at)} · {a.http_status === null ? "no HTTP answer" : `HTTP ${a.http_status}`} ·{" "}
                {a.latency_ms} ms
              </p>
              <p className="break-all">To {a.url || "(no URL set)"}</p>
              <p>{a.error === null ? "Delivered." : describeAttemptError(a.error)}</p>
              <ResponseExcerpt httpStatus={a.http_status} excerpt={a.response_excerpt} />
            </li>
          ))}
        </ol>
      )}
      <p className="mt-2 text-xs font-medium">Payload sent (signed as these exact bytes)</p>
      <pre className="mt-1 whitespace-pre-wrap break-all rounded-md bg-slate-100 p-2 text-xs dark:bg-slate-900">
        {c.payload}
      </pre>
    </details>
  );
}

function Delivery({ c, resend }: { c: CallbackDelivery; resend: ReturnType<typeof useResendCallback> }) {
  return (
    <li className="py-3">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <p>
            {statusLabel(c)} {c.event} for{" "}
            <IntentLink href={`/dashboard/transactions/${c.transaction_id}`} className="underline">
              transaction {c.transaction_id}
            </IntentLink>
            <span className="text-xs text-slate-600 dark:text-slate-400">
              {" "}
              · callback {c.id}
              {c.redelivery_of ? `, resend of ${c.redelivery_of}` : ""}
            </span>
          </p>
          <p className="text-xs text-slate-600 dark:text-slate-400">
            {time(c.created_at)} · {stateLine(c)}
          </p>
          <p className="break-all text-xs text-slate-600 dark:text-slate-400">
            {c.url === null
              ? "No callback URL is set: nothing will be sent until you save one."
              : `Goes to ${c.url}${c.is_invoice_url ? " (this invoice's own callback_url)" : ""}`}
          </p>
          {c.last_error && c.status !== "delivered" && (
            <p className="text-xs text-red-700 dark:text-red-300">{describeAttemptError(c.last_error)}</p>
          )}
          <Attempts c={c} />
        </div>
        <button
          type="button"
          className={secondaryButtonClass}
          aria-label={`Resend callback ${c.id}`}
          disabled={resend.isPending}
          onClick={() => resend.mutate(c.id)}
        >
          Resend
        </button>
      </div>
    </li>
  );
}

export function DeliveryLog() {
  const log = useCallbackLog();
  const resend = useResendCallback();
  return (
    <section aria-labelledby="deliveries" className="mt-8">
      <h2 id="deliveries" className="text-xl font-semibold">
        Delivery log
      </h2>
      <ResendState resend={resend} />
      {log.isPending && <p aria-live="polite">Loading deliveries…</p>}
      {log.error && <FormError message={errorMessage(log.error)} />}
      {log.data && log.data.callbacks.length === 0 && <p className="mt-2">No callbacks sent yet.</p>}
      {log.data && log.data.callbacks.length > 0 && (
        <ul className="mt-2 divide-y divide-slate-200 border-y border-slate-200 text-sm dark:divide-slate-800 dark:border-slate-800">
          {log.data.callbacks.map((c) => (
            <Delivery key={c.id} c={c} resend={resend} />
          ))}
        </ul>
      )}
    </section>
  );
}
