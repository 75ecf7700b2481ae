import { withSession } from "@/lib/api/with-session";
import { listPendingWithdrawals } from "@/lib/withdrawals/list-pending-withdrawals";

/** The approval queue: the merchant's withdrawals over a limit, waiting for a decision. */
export const GET = withSession({ permission: "dashboard.view" }, async ({ db, session }) => ({
  data: await listPendingWithdrawals(db, { merchantId: session.merchantId, viewerUserId: session.userId }),
}));
