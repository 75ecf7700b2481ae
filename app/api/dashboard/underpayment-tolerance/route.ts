import { withSession } from "@/lib/api/with-session";
import { sessionSource } from "@/lib/audit/session-source";
import { setUnderpaymentTolerance } from "@/lib/merchants/set-underpayment-tolerance";
import { underpaymentToleranceRequest } from "@/lib/schemas/merchant-settings";

/** Sets the share a payment may fall short by and still count as paid; confirmed (the merchant forgoes money). */
export const PUT = withSession(
  { action: "settings.tolerance", request: underpaymentToleranceRequest },
  async ({ db, session, body, request }) => ({
    tolerance_percent: await setUnderpaymentTolerance(db, {
      merchantId: session.merchantId,
      percent: body.tolerance_percent,
      audit: sessionSource(session, request),
    }),
  }),
);
