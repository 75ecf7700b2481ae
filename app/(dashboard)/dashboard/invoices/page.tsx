import type { Metadata } from "next";
import { dashboardAmount } from "@/components/dashboard/dashboard-amount";
import { InvoiceBadges } from "@/components/dashboard/invoice-badges";
import {
  EXCEPTION_LABELS,
  type InvoiceException,
  invoiceStatusLabel,
} from "@/components/dashboard/invoice-status";
import { buttonClass, selectClass } from "@/components/forms/control-classes";
import { HeaderRow } from "@/components/ui/header-row";
import { requireSession } from "@/lib/auth/session";
import { getDb } from "@/lib/db/client";
import { formatDateTime } from "@/lib/format-date-time";
import { can } from "@/lib/team/permissions";
import { INVOICE_STATUSES } from "@/lib/transactions/statuses";
import { type InvoiceFilter, listInvoices } from "./list-invoices";

export const metadata: Metadata = { title: "Invoices" };

const STATUSES: readonly string[] = INVOICE_STATUSES;
const EXCEPTIONS = Object.keys(EXCEPTION_LABELS) as InvoiceException[];

type Search = Promise<Record<string, string | string[] | undefined>>;

/** Only values the filter offers; anything else in the address is ignored rather than refused. */
function readFilter(search: Awaited<Search>): InvoiceFilter {
  const one = (key: string) => (typeof search[key] === "string" ? (search[key] as string) : "");
  const status = one("status");
  const exception = one("exception") as InvoiceException;
  return {
    status: STATUSES.includes(status) ? status : undefined,
    exception: EXCEPTIONS.includes(exception) ? exception : undefined,
    prefix: one("q").trim().slice(0, 100) || undefined,
  };
}

export default async function InvoicesPage({ searchParams }: { searchParams: Search }) {
  const session = await requireSession({ permission: "dashboard.view" });
  const filter = readFilter(await searchParams);
  const rows = await listInvoices(getDb(), { merchantId: session.merchantId, filter });
  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-2xl font-bold tracking-tight">Invoices</h1>
        {can(session.role, "invoices.manage") && (
          <a href="/dashboard/invoices/new" className={buttonClass}>
            New invoice
          </a>
        )}
      </div>
      {/* A plain GET form: the filter lives in the address, so it can be bookmarked and works without JavaScript. */}
      <form method="get" className="mt-4 flex flex-wrap items-end gap-3" aria-label="Filter invoices">
        <label className="flex w-full flex-col text-sm sm:w-auto">
          Search (title or your id starts with)
          <input name="q" defaultValue={filter.prefix ?? ""} className={selectClass} />
        </label>
        <label className="flex w-full flex-col text-sm sm:w-auto">
          Status
          <select name="status" defaultValue={filter.status ?? ""} className={selectClass}>
            <option value="">Any</option>
            {STATUSES.map((status) => (
              <option key={status} value={status}>
                {invoiceStatusLabel(status, null)}
              </option>
            ))}
          </select>
        </label>
        <label className="flex w-full flex-col text-sm sm:w-auto">
          Exception
          <select name="exception" defaultValue={filter.exception ?? ""} className={selectClass}>
            <option value="">Any</option>
            {EXCEPTIONS.map((exception) => (
              <option key={exception} value={exception}>
                {EXCEPTION_LABELS[exception]}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className={buttonClass}>
          Filter
        </button>
      </form>
      {rows.length === 0 ? (
        <p className="mt-4">
          {filter.status || filter.exception || filter.prefix
            ? "No invoices match."
            : can(session.role, "invoices.manage")
              ? "No invoices yet: create one here or with the API's invoices/create."
              : "No invoices yet."}
        </p>
      ) : (
        <div className="mt-4 overflow-x-auto">
          <table className="w-full text-left text-sm">
            <HeaderRow
              columns={[
                "Title",
                { label: "Your id", from: "sm" },
                "Amount",
                "Status",
                { label: "Created (UTC)", from: "sm" },
              ]}
            />
            <tbody>
              {rows.map((row) => (
                <tr key={row.id} className="border-t border-slate-200 dark:border-slate-800">
                  <td className="py-1 pr-3">
                    <a href={`/dashboard/invoices/${row.id}`} className="underline">
                      {row.title}
                    </a>
                    {/* On a phone the id and date go under the title: five columns in 343 px broke
                        the id one character a line. */}
                    <span className="block break-all font-mono text-xs text-slate-600 sm:hidden dark:text-slate-400">
                      {row.foreignId}
                    </span>
                    <span className="block text-xs text-slate-600 sm:hidden dark:text-slate-400">
                      {formatDateTime(row.createdAt)}
                    </span>
                  </td>
                  <td className="hidden break-all py-1 pr-3 font-mono sm:table-cell">{row.foreignId}</td>
                  <td className="whitespace-nowrap py-1 pr-3 font-mono">
                    {row.amount === null ? "" : dashboardAmount(row.amount, row.currency)}
                  </td>
                  <td className="py-1 pr-3">
                    <span className="flex flex-wrap items-center gap-1">
                      {invoiceStatusLabel(row.status, row.reason)}
                      <InvoiceBadges exceptions={row.exceptions} />
                    </span>
                  </td>
                  <td className="hidden whitespace-nowrap py-1 pr-3 sm:table-cell">
                    {formatDateTime(row.createdAt)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
