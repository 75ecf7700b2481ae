import { pathId } from "@/lib/api/path-id";
import { withSession } from "@/lib/api/with-session";
import { sessionSource } from "@/lib/audit/session-source";
import { cancelRefund } from "@/lib/refunds/cancel-refund";
import { refundJson } from "@/lib/refunds/refund-json";

/** Withdraws a refund the customer has not claimed (audited by cancelRefund); moves no money. */
export const POST = withSession({ permission: "payouts.create" }, async ({ db, session, params, request }) =>
  refundJson(
    await cancelRefund(db, {
      merchantId: session.merchantId,
      refundId: pathId(params, "No such refund."),
      actor: sessionSource(session, request),
    }),
  ),
);
