import { withSession } from "@/lib/api/with-session";
import { verifySecondFactor } from "@/lib/approvals/verify-second-factor";
import { sessionSource } from "@/lib/audit/session-source";
import { notFound } from "@/lib/errors";
import { getSecretBox } from "@/lib/runtime";
import { withdrawalDecisionRequest } from "@/lib/schemas/withdrawals";
import { decideWithdrawal } from "@/lib/withdrawals/decide-withdrawal";

/** Approves a pending withdrawal: it is sent as any other. Asks for the second factor first. */
export const POST = withSession(
  { request: withdrawalDecisionRequest },
  async ({ db, session, body, params, request }) => {
    const withdrawalId = Number(params.id);
    if (!Number.isSafeInteger(withdrawalId) || withdrawalId <= 0) throw notFound("No such withdrawal.");
    await verifySecondFactor(db, getSecretBox(), { userId: session.userId, ...body });
    const record = await decideWithdrawal(db, {
      merchantId: session.merchantId,
      withdrawalId,
      userId: session.userId,
      decision: "approve",
      audit: sessionSource(session, request),
    });
    return { id: record.id, status: record.status };
  },
);
