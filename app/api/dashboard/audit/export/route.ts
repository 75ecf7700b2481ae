import { withSession } from "@/lib/api/with-session";
import { auditEntriesCsv } from "@/lib/audit/audit-entries-csv";
import { type AuditEntry, listAuditEntries } from "@/lib/audit/list-audit-entries";
import { parseAuditFilter } from "@/lib/audit/parse-audit-filter";

/** The CSV holds at most this many entries (newest first); narrow the filter for older ones. */
const EXPORT_LIMIT = 100_000;
const BATCH = 1000;

/** CSV of every entry the page's filter matches (the page number is ignored). */
export const GET = withSession({}, async ({ db, session, query }) => {
  const { filter } = parseAuditFilter(query);
  const all: AuditEntry[] = [];
  for (let page = 1; all.length < EXPORT_LIMIT; page++) {
    const { entries, hasMore } = await listAuditEntries(db, {
      merchantId: session.merchantId,
      filter,
      page,
      pageSize: BATCH,
    });
    all.push(...entries);
    if (!hasMore) break;
  }
  return new Response(auditEntriesCsv(all), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="kassa-audit-${new Date().toISOString().slice(0, 10)}.csv"`,
      "cache-control": "no-store",
    },
  });
});
