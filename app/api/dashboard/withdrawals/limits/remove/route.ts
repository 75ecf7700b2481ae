import { withSession } from "@/lib/api/with-session";
import { sessionSource } from "@/lib/audit/session-source";
import { removeWithdrawalLimits } from "@/lib/limits/remove-withdrawal-limits";
import { withdrawalLimitsRemoveRequest } from "@/lib/schemas/withdrawals";

/** Removes one currency's limits (withdrawals in it no longer wait), confirmed first. */
export const POST = withSession(
  { action: "limits.remove", request: withdrawalLimitsRemoveRequest },
  async ({ db, session, body, request }) => {
    return {
      currency: body.currency,
      removed: await db.transaction((tx) =>
        removeWithdrawalLimits(tx, {
          merchantId: session.merchantId,
          currency: body.currency,
          audit: sessionSource(session, request),
        }),
      ),
    };
  },
);
