"use client";

import type { z } from "zod";
import { dashboardAmount } from "@/components/dashboard/dashboard-amount";
import { formSchema } from "@/components/forms/form-schema";
import { useOutbox } from "@/components/query/use-sandbox";
import { CURRENCIES } from "@/lib/currencies/registry";
import { formatDateTime } from "@/lib/format-date-time";
import { formatRateValue } from "@/lib/format-money";
import type {
  sandboxCreditRequest,
  sandboxMineRequest,
  sandboxPayRequest,
  sandboxRateRequest,
} from "@/lib/schemas/dashboard";
import { InvoiceActions, type OpenInvoiceRow } from "./invoice-actions";
import { SandboxAction } from "./sandbox-action";

const ALL = CURRENCIES.map((c) => c.code);
const CRYPTO = CURRENCIES.filter((c) => c.kind === "crypto").map((c) => c.code);

const schemas = {
  pay: formSchema(() => import("@/lib/schemas/dashboard").then((m) => m.sandboxPayRequest)),
  mine: formSchema(() => import("@/lib/schemas/dashboard").then((m) => m.sandboxMineRequest)),
  credit: formSchema(() => import("@/lib/schemas/dashboard").then((m) => m.sandboxCreditRequest)),
  rate: formSchema(() => import("@/lib/schemas/dashboard").then((m) => m.sandboxRateRequest)),
};

export function SandboxClient({ invoices }: { invoices: readonly OpenInvoiceRow[] }) {
  const outbox = useOutbox();
  return (
    <>
      <h1 className="text-2xl font-bold tracking-tight">Sandbox</h1>
      <p className="mt-2 max-w-2xl text-slate-700 dark:text-slate-300">
        Play out what customers and the network do: pay an invoice or address (pay less or more to see how
        Kassa handles it), mine blocks to confirm payments, add funds to pay out, and move exchange rates.
      </p>
      <div className="mt-4 grid gap-4 md:grid-cols-2">
        <InvoiceActions invoices={invoices} />
        <SandboxAction<z.input<typeof sandboxPayRequest>, { txid: string; is_recognized: boolean }>
          title="Send a payment"
          action="payments"
          schema={schemas.pay}
          defaultValues={{ currency: CRYPTO[0], address: "", amount: "", tag: "" }}
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
        <SandboxAction<z.input<typeof sandboxMineRequest>, { blocks: number; height: number }>
          title="Mine blocks"
          action="blocks"
          schema={schemas.mine}
          defaultValues={{ currency: CRYPTO[0], count: "" }}
          fields={[
            { name: "currency", label: "Network of", options: CRYPTO },
            { name: "count", label: "Blocks", placeholder: "1" },
          ]}
          describe={(r) => `Mined ${r.blocks} block(s); the chain is at height ${r.height}.`}
        />
        <SandboxAction<z.input<typeof sandboxCreditRequest>, { currency: string; balance: string }>
          title="Credit balance"
          action="credit"
          schema={schemas.credit}
          defaultValues={{ currency: ALL[0], amount: "" }}
          fields={[
            { name: "currency", label: "Currency", options: ALL },
            { name: "amount", label: "Amount", placeholder: "100" },
          ]}
          describe={(r) => `The ${r.currency} balance is now ${dashboardAmount(r.balance, r.currency)}.`}
        />
        <SandboxAction<z.input<typeof sandboxRateRequest>, { currency: string; usd_price: string }>
          title="Set a rate"
          action="rates"
          schema={schemas.rate}
          defaultValues={{ currency: ALL[0], usd_price: "" }}
          fields={[
            { name: "currency", label: "Currency", options: ALL },
            { name: "usd_price", label: "Price in USD", placeholder: "65000" },
          ]}
          // The price as typed, every digit kept (grouped only): the merchant checks what was saved.
          describe={(r) =>
            `1 ${r.currency} now costs ${formatRateValue(r.usd_price, { significant: 40 }).text} USD in your account; other merchants keep their prices.`
          }
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
              To {email.recipient} · {email.kind} · {email.status} · {formatDateTime(email.created_at)}
            </div>
            <p className="mt-2 whitespace-pre-line">{email.body}</p>
          </li>
        ))}
      </ul>
    </>
  );
}
