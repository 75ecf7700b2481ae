import { withSession } from "@/lib/api/with-session";
import { listTransactions } from "@/lib/transactions/list-transactions";
import { parseFilter } from "@/lib/transactions/parse-filter";

export const GET = withSession({ permission: "dashboard.view" }, async ({ db, session, query }) => {
  const { filter, before } = parseFilter(query);
  return listTransactions(db, { merchantId: session.merchantId, filter, before });
});
