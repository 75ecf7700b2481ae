"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useState } from "react";
import { IntentLink } from "@/components/dashboard/intent-link";
import { transactionStatus } from "@/components/dashboard/transaction-status";
import { buttonClass, secondaryButtonClass, selectClass } from "@/components/forms/field";
import { errorMessage, FormError } from "@/components/forms/form-error";
import { useTransactionPages } from "@/components/query/use-transactions";
import { Money } from "@/components/ui/money";
import { CURRENCIES } from "@/lib/currencies/registry";
import { formatDateTime } from "@/lib/format-date-time";
import { kindLabel, TRANSACTION_STATUSES, TYPE_FILTERS } from "@/lib/transactions/kinds";
import { statusLabel } from "@/lib/transactions/status-label";

const FILTERS = ["q", "type", "status", "currency", "from", "to"] as const;

/** All of the merchant's transactions: filters live in the URL (shareable, back-button friendly), pages by keyset. */
export function ExplorerClient() {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const filterQuery = new URLSearchParams(
    FILTERS.flatMap((name) => (params.get(name) ? [[name, params.get(name)!]] : [])),
  ).toString();
  const [draft, setDraft] = useState(() =>
    Object.fromEntries(FILTERS.map((name) => [name, params.get(name) ?? ""])),
  );
  const pages = useTransactionPages(filterQuery);
  const apply = (event: React.FormEvent) => {
    event.preventDefault();
    const next = new URLSearchParams(Object.entries(draft).filter(([, value]) => value));
    router.push(`${pathname}?${next.toString()}`);
  };
  const rows = pages.data?.pages.flatMap((page) => page.rows) ?? [];
  const error = pages.error;
  return (
    <>
      <h1 className="text-2xl font-bold tracking-tight">Transactions</h1>
      <form
        onSubmit={apply}
        className="mt-4 grid gap-3 sm:grid-cols-3 lg:grid-cols-6"
        aria-label="Filter transactions"
      >
        <div className="sm:col-span-3 lg:col-span-2">
          <label htmlFor="q" className="block text-sm font-medium">
            Search
          </label>
          <input
            id="q"
            value={draft.q}
            onChange={(e) => setDraft({ ...draft, q: e.target.value })}
            placeholder="id, foreign_id, txid, address or customer reference"
            className={selectClass}
          />
        </div>
        {(
          [
            ["type", "Type", TYPE_FILTERS],
            ["status", "Status", TRANSACTION_STATUSES.map((s) => ({ value: s, label: statusLabel(s) }))],
            ["currency", "Currency", CURRENCIES.map((c) => ({ value: c.code, label: c.code }))],
          ] as const
        ).map(([name, label, options]) => (
          <div key={name}>
            <label htmlFor={name} className="block text-sm font-medium">
              {label}
            </label>
            <select
              id={name}
              value={draft[name]}
              onChange={(e) => setDraft({ ...draft, [name]: e.target.value })}
              className={selectClass}
            >
              <option value="">Any</option>
              {options.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </select>
          </div>
        ))}
        <div className="grid grid-cols-2 gap-2 sm:col-span-2 lg:col-span-1 lg:grid-cols-1">
          <div>
            <label htmlFor="from" className="block text-sm font-medium">
              From
            </label>
            <input
              id="from"
              type="date"
              value={draft.from}
              onChange={(e) => setDraft({ ...draft, from: e.target.value })}
              className={selectClass}
            />
          </div>
          <div>
            <label htmlFor="to" className="block text-sm font-medium">
              To
            </label>
            <input
              id="to"
              type="date"
              value={draft.to}
              onChange={(e) => setDraft({ ...draft, to: e.target.value })}
              className={selectClass}
            />
          </div>
        </div>
        <div className="flex items-end gap-2 sm:col-span-3 lg:col-span-6">
          <button type="submit" className={buttonClass}>
            Apply filters
          </button>
          <a
            href={`/api/dashboard/transactions/export?${filterQuery}`}
            className={secondaryButtonClass}
            download
          >
            Export CSV
          </a>
        </div>
      </form>
      <FormError message={pages.error ? errorMessage(pages.error) : null} />
      {pages.isPending && (
        <p className="mt-4" aria-live="polite">
          Loading transactions…
        </p>
      )}
      {!pages.isPending && !error && rows.length === 0 && (
        <p className="mt-6">
          {filterQuery
            ? "No transaction matches these filters."
            : "No transactions yet: create an invoice or a payout to start."}
        </p>
      )}
      {rows.length > 0 && (
        // A phone gets one stacked row per transaction, every field on its own line; wider screens the table.
        <ul
          aria-label="Transactions, newest first"
          className="mt-6 divide-y divide-slate-200 border-y border-slate-200 sm:hidden dark:divide-slate-800 dark:border-slate-800"
        >
          {rows.map((row) => (
            <li key={row.id} className="py-3 text-sm">
              <div className="flex flex-wrap items-baseline justify-between gap-x-3">
                <IntentLink
                  href={`/dashboard/transactions/${row.id}`}
                  className="font-medium text-indigo-700 underline dark:text-indigo-300"
                >
                  {kindLabel(row.type)} {row.id}
                </IntentLink>
                <span className="break-all font-mono">
                  {row.amount ? <Money amount={row.amount} code={row.currency} /> : "—"}
                </span>
              </div>
              <p>{transactionStatus(row.type, row.status)}</p>
              <p className="text-slate-700 dark:text-slate-300">{formatDateTime(row.created_at)}</p>
              {row.foreign_id && (
                <p className="break-all">
                  Your id <span className="font-mono">{row.foreign_id}</span>
                </p>
              )}
            </li>
          ))}
        </ul>
      )}
      {rows.length > 0 && (
        <div className="mt-6 hidden overflow-x-auto sm:block">
          <table className="w-full min-w-[40rem] text-left text-sm">
            <caption className="sr-only">Transactions, newest first</caption>
            <thead>
              <tr className="border-b border-slate-200 dark:border-slate-800">
                <th scope="col" className="py-2 pr-3">
                  Id
                </th>
                <th scope="col" className="py-2 pr-3">
                  Created
                </th>
                <th scope="col" className="py-2 pr-3">
                  Type
                </th>
                <th scope="col" className="py-2 pr-3">
                  Status
                </th>
                <th scope="col" className="py-2 pr-3 text-right">
                  Amount
                </th>
                <th scope="col" className="py-2">
                  Your id
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.id} className="border-b border-slate-100 dark:border-slate-900">
                  <td className="py-2 pr-3">
                    <IntentLink
                      href={`/dashboard/transactions/${row.id}`}
                      className="text-indigo-700 underline dark:text-indigo-300"
                    >
                      {row.id}
                    </IntentLink>
                  </td>
                  <td className="py-2 pr-3 whitespace-nowrap">{formatDateTime(row.created_at)}</td>
                  <td className="py-2 pr-3">{kindLabel(row.type)}</td>
                  <td className="py-2 pr-3">{transactionStatus(row.type, row.status)}</td>
                  <td className="py-2 pr-3 text-right font-mono">
                    {row.amount ? <Money amount={row.amount} code={row.currency} /> : "—"}
                  </td>
                  <td className="py-2 break-all">{row.foreign_id ?? ""}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {pages.hasNextPage && (
        <button
          type="button"
          onClick={() => pages.fetchNextPage()}
          disabled={pages.isFetchingNextPage}
          className={`mt-4 ${secondaryButtonClass}`}
        >
          {pages.isFetchingNextPage ? "Loading…" : "Load older transactions"}
        </button>
      )}
    </>
  );
}
