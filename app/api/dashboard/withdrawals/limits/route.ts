import { withSession } from "@/lib/api/with-session";
import { sessionSource } from "@/lib/audit/session-source";
import { confirmUser } from "@/lib/auth/confirm-user";
import { listWithdrawalLimits } from "@/lib/limits/list-withdrawal-limits";
import { setWithdrawalLimits } from "@/lib/limits/set-withdrawal-limits";
import { getSecretBox } from "@/lib/runtime";
import { withdrawalLimitsRequest } from "@/lib/schemas/withdrawals";

export const GET = withSession({ permission: "dashboard.view" }, async ({ db, session }) => ({
  data: await listWithdrawalLimits(db, session.merchantId),
}));

/** Sets one currency's limits, after the second factor (the code, or the password without one; counted per user). */
export const POST = withSession(
  { permission: "limits.manage", request: withdrawalLimitsRequest },
  async ({ db, session, body, request }) => {
    await confirmUser(db, {
      userId: session.userId,
      ask: "second_factor",
      box: getSecretBox(),
      code: body.code,
      password: body.password,
    });
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
