import type { Metadata } from "next";
import { AUDIT_ACTION_LABELS } from "@/components/dashboard/audit-action-labels";
import { AuditFilterForm } from "@/components/dashboard/audit-filter-form";
import { IntentLink } from "@/components/dashboard/intent-link";
import { selectClass } from "@/components/forms/control-classes";
import { ScrollRegion } from "@/components/ui/scroll-region";
import { listAuditEntries } from "@/lib/audit/list-audit-entries";
import { parseAuditFilter } from "@/lib/audit/parse-audit-filter";
import { requireSession } from "@/lib/auth/session";
import { getDb } from "@/lib/db/client";
import { KassaError } from "@/lib/errors";
import { formatDateTime } from "@/lib/format-date-time";

export const metadata: Metadata = { title: "Audit trail" };

const PAGE_SIZE = 50;

/**
 * The merchant's audit trail, newest first: rendered on the server from the query string, so the
 * filter and page are in the address (shareable, back button) and the export link carries the same filter.
 */
export default async function AuditPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[]>>;
}) {
  const session = await requireSession({ permission: "audit.view" });
  const raw = await searchParams;
  const query = new URLSearchParams();
  for (const name of ["action", "actor", "from", "to", "page"]) {
    const value = raw[name];
    if (typeof value === "string" && value !== "") query.set(name, value);
  }
  let parsed: ReturnType<typeof parseAuditFilter> | undefined;
  let problem: string | undefined;
  try {
    parsed = parseAuditFilter(query);
  } catch (error) {
    if (!(error instanceof KassaError)) throw error;
    problem = Object.values(error.fields ?? {}).join(" ") || error.message;
  }
  const result = parsed
    ? await listAuditEntries(getDb(), {
        merchantId: session.merchantId,
        filter: parsed.filter,
        page: parsed.page,
        pageSize: PAGE_SIZE,
      })
    : undefined;
  const pageLink = (page: number) => {
    const next = new URLSearchParams(query);
    next.set("page", String(page));
    return `/dashboard/audit?${next}`;
  };
  const exportQuery = new URLSearchParams(query);
  exportQuery.delete("page");
  const page = parsed?.page ?? 1;
  return (
    <>
      <h1 className="text-2xl font-bold tracking-tight">Audit trail</h1>
      <p className="mt-2 max-w-2xl text-slate-700 dark:text-slate-300">
        Every sign-in, key change, limit change, payout decision and settings change of your account: who,
        when and from which address.
      </p>
      <AuditFilterForm
        values={{
          action: query.get("action") ?? "",
          actor: query.get("actor") ?? "",
          from: query.get("from") ?? "",
          to: query.get("to") ?? "",
        }}
        selectClass={selectClass}
      />
      <p className="mt-3">
        <a
          className="text-indigo-700 underline dark:text-indigo-300"
          href={`/api/dashboard/audit/export?${exportQuery}`}
        >
          Export CSV of this filter
        </a>
      </p>
      {problem && (
        <p role="alert" className="mt-4 text-red-700 dark:text-red-300">
          {problem}
        </p>
      )}
      {result && result.entries.length === 0 && <p className="mt-4">No entries match.</p>}
      {result && result.entries.length > 0 && (
        <ScrollRegion label="Audit entries" className="mt-4">
          <table className="w-full min-w-[40rem] text-left text-sm">
            <caption className="sr-only">Audit entries, newest first</caption>
            <thead>
              <tr className="border-b border-slate-300 dark:border-slate-700">
                <th scope="col" className="py-2 pr-3">
                  Time (UTC)
                </th>
                <th scope="col" className="py-2 pr-3">
                  Who
                </th>
                <th scope="col" className="py-2 pr-3">
                  From
                </th>
                <th scope="col" className="py-2 pr-3">
                  Action
                </th>
                <th scope="col" className="py-2">
                  Details
                </th>
              </tr>
            </thead>
            <tbody>
              {result.entries.map((entry) => (
                <tr key={entry.id} className="border-b border-slate-200 align-top dark:border-slate-800">
                  <td className="whitespace-nowrap py-2 pr-3">{formatDateTime(entry.occurredAt)}</td>
                  <td className="break-all py-2 pr-3">{entry.actor}</td>
                  <td className="break-all py-2 pr-3 font-mono">{entry.address ?? "—"}</td>
                  <td className="py-2 pr-3">{AUDIT_ACTION_LABELS[entry.action] ?? entry.action}</td>
                  <td className="break-all py-2">{entry.detail}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
      {result && (page > 1 || result.hasMore) && (
        <nav aria-label="Audit pages" className="mt-4 flex gap-4">
          {page > 1 && (
            <IntentLink className="text-indigo-700 underline dark:text-indigo-300" href={pageLink(page - 1)}>
              Newer entries
            </IntentLink>
          )}
          <span>Page {page}</span>
          {result.hasMore && (
            <IntentLink className="text-indigo-700 underline dark:text-indigo-300" href={pageLink(page + 1)}>
              Older entries
            </IntentLink>
          )}
        </nav>
      )}
    </>
  );
}
