import { withSession } from "@/lib/api/with-session";
import { sessionSource } from "@/lib/audit/session-source";
import { confirmUser } from "@/lib/auth/confirm-user";
import { removeWithdrawalLimits } from "@/lib/limits/remove-withdrawal-limits";
import { getSecretBox } from "@/lib/runtime";
import { withdrawalLimitsRemoveRequest } from "@/lib/schemas/withdrawals";

/** Removes one currency's limits (withdrawals in it no longer wait), after the second factor. */
export const POST = withSession(
  { permission: "limits.manage", request: withdrawalLimitsRemoveRequest },
  async ({ db, session, body, request }) => {
    await confirmUser(db, {
      userId: session.userId,
      ask: "second_factor",
      box: getSecretBox(),
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
