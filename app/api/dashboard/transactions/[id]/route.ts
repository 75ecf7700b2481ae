import { withSession } from "@/lib/api/with-session";
import { notFound } from "@/lib/errors";
import { transactionDetail } from "@/lib/transactions/transaction-detail";

export const GET = withSession({ permission: "dashboard.view" }, async ({ db, session, params }) => {
  const id = Number(params.id);
  const detail = Number.isSafeInteger(id) ? await transactionDetail(db, session.merchantId, id) : undefined;
  if (!detail) throw notFound("No such transaction.");
  return detail;
});
