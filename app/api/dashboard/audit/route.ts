import { withSession } from "@/lib/api/with-session";
import { listAuditEntries } from "@/lib/audit/list-audit-entries";
import { parseAuditFilter } from "@/lib/audit/parse-audit-filter";

const PAGE_SIZE = 50;

export const GET = withSession({ permission: "audit.view" }, async ({ db, session, query }) => {
  const { filter, page } = parseAuditFilter(query);
  const { entries, hasMore } = await listAuditEntries(db, {
    merchantId: session.merchantId,
    filter,
    page,
    pageSize: PAGE_SIZE,
  });
  return {
    page,
    has_more: hasMore,
    entries: entries.map((e) => ({
      id: e.id,
      occurred_at: e.occurredAt.toISOString(),
      actor: e.actor,
      address: e.address,
      action: e.action,
      detail: e.detail,
    })),
  };
});
