import { withSession } from "@/lib/api/with-session";
import { sessionSource } from "@/lib/audit/session-source";
import { listWithdrawalLimits } from "@/lib/limits/list-withdrawal-limits";
import { setWithdrawalLimits } from "@/lib/limits/set-withdrawal-limits";
import { withdrawalLimitsRequest } from "@/lib/schemas/withdrawals";

export const GET = withSession({ permission: "dashboard.view" }, async ({ db, session }) => ({
  data: await listWithdrawalLimits(db, session.merchantId),
}));

/** Sets one currency's limits, confirmed first. */
export const POST = withSession(
  { action: "limits.set", request: withdrawalLimitsRequest },
  async ({ db, session, body, request }) => {
    return db.transaction((tx) =>
      setWithdrawalLimits(tx, {
        merchantId: session.merchantId,
        currency: body.currency,
        perWithdrawal: body.per_withdrawal,
        perDay: body.per_day,
        audit: sessionSource(session, request),
      }),
    );
  },
);
