"use client";

import { useState } from "react";
import { buttonClass, secondaryButtonClass, selectClass } from "@/components/forms/field";
import { errorMessage, FormError } from "@/components/forms/form-error";
import { useRefreshWith } from "@/components/query/use-refresh-with";
import {
  fetchInvoiceState,
  type InvoiceAction,
  type InvoiceState,
  useInvoiceAction,
} from "@/components/query/use-sandbox";

export type OpenInvoiceRow = {
  id: number;
  title: string;
  foreignId: string;
  label: string;
  amount: string;
  /** Null while the customer has not chosen a currency: nothing to pay to yet. */
  payCurrency: string | null;
};

const ACTIONS: { action: InvoiceAction; label: string }[] = [
  { action: "pay_exact", label: "Pay exact" },
  { action: "pay_under", label: "Pay under" },
  { action: "pay_over", label: "Pay over" },
  { action: "expire", label: "Expire now" },
];

/** How long the panel follows the confirmation the job runner settles after the blocks. */
const FOLLOW_MS = 60_000;
const POLL_MS = 700;

/** Polls the invoice until no payment of it is confirming (the jobs the mined blocks queued have run). */
async function settledState(id: number): Promise<InvoiceState> {
  const until = Date.now() + FOLLOW_MS;
  for (;;) {
    const state = await fetchInvoiceState(id);
    if (state.status !== "processing" || Date.now() > until) return state;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/**
 * The sandbox panel's one-click actions on an open invoice: pay what is due, half of it, or a tenth
 * more (on the sandbox chain, its confirmations mined), or let its timer run out now; progress, then
 * the invoice's new status, are announced.
 */
export function InvoiceActions({ invoices }: { invoices: readonly OpenInvoiceRow[] }) {
  const { isRefreshing, refreshWith } = useRefreshWith();
  const act = useInvoiceAction();
  const [selectedId, setSelectedId] = useState<number | null>(invoices[0]?.id ?? null);
  const [progress, setProgress] = useState<string | null>(null);
  const [result, setResult] = useState<{ id: number; text: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const selected = invoices.find((invoice) => invoice.id === selectedId) ?? invoices[0];

  const run = async (action: InvoiceAction) => {
    if (!selected) return;
    const { id } = selected;
    setError(null);
    setResult(null);
    setProgress(action === "expire" ? `Expiring invoice ${id}…` : `Sending a payment to invoice ${id}…`);
    try {
      const sent = await act.mutateAsync({ id, action });
      if (sent.txid) {
        setProgress(
          `Sent ${sent.amount?.replace(/\.?0+$/, "")} ${sent.currency} and mined ${sent.blocks} block(s); waiting for the confirmation…`,
        );
      }
      const state = await settledState(id);
      // The list of open invoices is the page's: the status is announced once it is fetched again.
      refreshWith(() => setResult({ id, text: `Invoice ${id} is now: ${state.label}.` }));
    } catch (caught) {
      setError(errorMessage(caught));
    } finally {
      setProgress(null);
    }
  };

  return (
    <section
      aria-labelledby="invoice-actions"
      className="rounded-md border border-slate-200 p-3 dark:border-slate-800 md:col-span-2"
    >
      <h2 id="invoice-actions" className="font-semibold">
        Act on an invoice
      </h2>
      {invoices.length === 0 ? (
        <p className="mt-2 text-sm">
          No open invoices.{" "}
          <a href="/dashboard/invoices/new" className="underline">
            Create one
          </a>{" "}
          and it appears here.
        </p>
      ) : (
        <>
          <label htmlFor="sandbox-invoice" className="mt-2 block text-sm font-medium">
            Open invoice
          </label>
          <select
            id="sandbox-invoice"
            className={`mt-1 ${selectClass}`}
            value={selected?.id}
            onChange={(event) => setSelectedId(Number(event.target.value))}
          >
            {invoices.map((invoice) => (
              <option key={invoice.id} value={invoice.id}>
                {invoice.id} · {invoice.title} · {invoice.amount} · {invoice.label}
              </option>
            ))}
          </select>
          {selected && !selected.payCurrency && (
            <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">
              The customer has not chosen a currency for this invoice yet, so there is no address to pay:
              choose one on its checkout page, or expire it.
            </p>
          )}
          <fieldset className="mt-3">
            <legend className="sr-only">Actions on the invoice</legend>
            <div className="flex flex-wrap gap-2">
              {ACTIONS.map(({ action, label }) => (
                <button
                  key={action}
                  type="button"
                  className={action === "pay_exact" ? buttonClass : secondaryButtonClass}
                  disabled={
                    progress !== null || isRefreshing || (action !== "expire" && !selected?.payCurrency)
                  }
                  onClick={() => run(action)}
                >
                  {label}
                </button>
              ))}
            </div>
          </fieldset>
        </>
      )}
      <p role="status" className="mt-2 text-sm">
        {progress}
        {result && (
          <>
            {result.text}{" "}
            <a href={`/dashboard/invoices/${result.id}`} className="underline">
              Open invoice {result.id}
            </a>
          </>
        )}
      </p>
      <FormError message={error} />
    </section>
  );
}
