"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { buttonClass, selectClass } from "@/components/forms/field";
import { CURRENCIES } from "@/lib/currencies/registry";
import { DashboardRequestError, dashboardFetch } from "@/lib/dashboard/client-api";

type Outbox = {
  emails: {
    id: number;
    kind: string;
    recipient: string;
    subject: string;
    body: string;
    status: string;
    created_at: string;
  }[];
};

/** One small form of the sandbox panel: its fields, one action, and the answer in words. */
function Action({
  title,
  path,
  fields,
  describe,
}: {
  title: string;
  path: string;
  fields: { name: string; label: string; options?: string[]; placeholder?: string }[];
  describe: (result: Record<string, unknown>) => string;
}) {
  const queryClient = useQueryClient();
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(fields.map((f) => [f.name, f.options?.[0] ?? ""])),
  );
  const [message, setMessage] = useState<{ tone: "ok" | "error"; text: string } | null>(null);
  const [isBusy, setIsBusy] = useState(false);
  const id = title.toLowerCase().replace(/\W+/g, "-");
  return (
    <form
      aria-labelledby={id}
      className="rounded-md border border-slate-200 p-3 dark:border-slate-800"
      onSubmit={async (event) => {
        event.preventDefault();
        setIsBusy(true);
        try {
          const body = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== ""));
          setMessage({ tone: "ok", text: describe(await dashboardFetch(path, { body })) });
          void queryClient.invalidateQueries();
        } catch (error) {
          const text =
            error instanceof DashboardRequestError
              ? (Object.values(error.fields)[0] ?? error.message)
              : "That did not work.";
          setMessage({ tone: "error", text });
        } finally {
          setIsBusy(false);
        }
      }}
    >
      <h2 id={id} className="font-semibold">
        {title}
      </h2>
      {fields.map((field) => (
        <div key={field.name} className="mt-2">
          <label htmlFor={`${id}-${field.name}`} className="block text-sm">
            {field.label}
          </label>
          {field.options ? (
            <select
              id={`${id}-${field.name}`}
              value={values[field.name]}
              onChange={(e) => setValues({ ...values, [field.name]: e.target.value })}
              className={selectClass}
            >
              {field.options.map((option) => (
                <option key={option}>{option}</option>
              ))}
            </select>
          ) : (
            <input
              id={`${id}-${field.name}`}
              value={values[field.name]}
              placeholder={field.placeholder}
              onChange={(e) => setValues({ ...values, [field.name]: e.target.value })}
              className={selectClass}
            />
          )}
        </div>
      ))}
      <button type="submit" disabled={isBusy} className={`mt-3 ${buttonClass}`}>
        {isBusy ? "Working…" : title}
      </button>
      {message && (
        <p
          aria-live="polite"
          className={`mt-2 text-sm ${message.tone === "error" ? "text-red-700 dark:text-red-300" : ""}`}
        >
          {message.text}
        </p>
      )}
    </form>
  );
}

const ALL = CURRENCIES.map((c) => c.code);
const CRYPTO = CURRENCIES.filter((c) => c.kind === "crypto").map((c) => c.code);

export function SandboxClient() {
  const outbox = useQuery({
    queryKey: ["outbox"],
    queryFn: () => dashboardFetch<Outbox>("/api/dashboard/sandbox/outbox"),
    refetchInterval: 5_000,
  });
  return (
    <>
      <h1 className="text-2xl font-bold tracking-tight">Sandbox</h1>
      <p className="mt-2 max-w-2xl text-slate-700 dark:text-slate-300">
        Play out what customers and the network do: pay an invoice or address (pay less or more to see how
        Kassa handles it), mine blocks to confirm payments, add funds to pay out, and move exchange rates.
      </p>
      <div className="mt-4 grid gap-4 md:grid-cols-2">
        <Action
          title="Send a payment"
          path="/api/dashboard/sandbox/payments"
          fields={[
            { name: "currency", label: "Currency", options: CRYPTO },
            { name: "address", label: "To address", placeholder: "The invoice's address" },
            { name: "amount", label: "Amount", placeholder: "0.001" },
            { name: "tag", label: "Destination tag (XRP)" },
          ]}
          describe={(r) =>
            r.is_recognized
              ? `Sent: transaction ${r.txid} is in the mempool.`
              : "Sent, but the address is not one of Kassa's, so nothing is credited."
          }
        />
        <Action
          title="Mine blocks"
          path="/api/dashboard/sandbox/blocks"
          fields={[
            { name: "currency", label: "Network of", options: CRYPTO },
            { name: "count", label: "Blocks", placeholder: "1" },
          ]}
          describe={(r) => `Mined ${r.blocks} block(s); the chain is at height ${r.height}.`}
        />
        <Action
          title="Credit balance"
          path="/api/dashboard/sandbox/credit"
          fields={[
            { name: "currency", label: "Currency", options: ALL },
            { name: "amount", label: "Amount", placeholder: "100" },
          ]}
          describe={(r) => `The ${r.currency} balance is now ${r.balance}.`}
        />
        <Action
          title="Set a rate"
          path="/api/dashboard/sandbox/rates"
          fields={[
            { name: "currency", label: "Currency", options: ALL },
            { name: "usd_price", label: "Price in USD", placeholder: "65000" },
          ]}
          describe={(r) => `1 ${r.currency} now costs ${r.usd_price} USD.`}
        />
      </div>
      <h2 className="mt-8 text-xl font-semibold">Outbox</h2>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        E-mails Kassa sent your customers (receipts, refund instructions).
      </p>
      {outbox.data && outbox.data.emails.length === 0 && <p className="mt-2">No e-mails yet.</p>}
      <ul className="mt-2 space-y-2">
        {outbox.data?.emails.map((email) => (
          <li key={email.id} className="rounded-md border border-slate-200 p-3 text-sm dark:border-slate-800">
            <div className="font-medium">{email.subject}</div>
            <div className="text-xs text-slate-600 dark:text-slate-400">
              To {email.recipient} · {email.kind} · {email.status} ·{" "}
              {new Date(email.created_at).toLocaleString()}
            </div>
            <p className="mt-2 whitespace-pre-line">{email.body}</p>
          </li>
        ))}
      </ul>
    </>
  );
}
