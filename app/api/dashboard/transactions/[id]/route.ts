import { pathId } from "@/lib/api/path-id";
import { withSession } from "@/lib/api/with-session";
import { notFound } from "@/lib/errors";
import { transactionDetail } from "@/lib/transactions/transaction-detail";

export const GET = withSession({ permission: "dashboard.view" }, async ({ db, session, params }) => {
  const detail = await transactionDetail(db, session.merchantId, pathId(params, "No such transaction."));
  if (!detail) throw notFound("No such transaction.");
  return detail;
});
