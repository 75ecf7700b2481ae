import { withSession } from "@/lib/api/with-session";
import { auditEntriesCsv } from "@/lib/audit/audit-entries-csv";
import { listAuditEntries } from "@/lib/audit/list-audit-entries";
import { parseAuditFilter } from "@/lib/audit/parse-audit-filter";

/** The CSV holds at most this many entries (newest first); narrow the filter for older ones. */
const EXPORT_LIMIT = 100_000;

/** CSV of every entry the page's filter matches (the page number is ignored). */
export const GET = withSession({ permission: "audit.view" }, async ({ db, session, query }) => {
  const { filter } = parseAuditFilter(query);
  // One query, newest first, capped (pages of it would rescan the rows before each OFFSET).
  const { entries } = await listAuditEntries(db, {
    merchantId: session.merchantId,
    filter,
    page: 1,
    pageSize: EXPORT_LIMIT,
  });
  return new Response(auditEntriesCsv(entries), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="kassa-audit-${new Date().toISOString().slice(0, 10)}.csv"`,
      "cache-control": "no-store",
    },
  });
});
