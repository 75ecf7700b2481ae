import { withSession } from "@/lib/api/with-session";
import { verifySecondFactor } from "@/lib/approvals/verify-second-factor";
import { sessionSource } from "@/lib/audit/session-source";
import { removeWithdrawalLimits } from "@/lib/limits/remove-withdrawal-limits";
import { getSecretBox } from "@/lib/runtime";
import { withdrawalLimitsRemoveRequest } from "@/lib/schemas/withdrawals";

/** Removes one currency's limits (withdrawals in it no longer wait), after the second factor. */
export const POST = withSession(
  { permission: "limits.manage", request: withdrawalLimitsRemoveRequest },
  async ({ db, session, body, request }) => {
    await verifySecondFactor(db, getSecretBox(), {
      userId: session.userId,
      code: body.code,
      password: body.password,
    });
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
