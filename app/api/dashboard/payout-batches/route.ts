import { withSession } from "@/lib/api/with-session";
import { sessionSource } from "@/lib/audit/session-source";
import { listPayoutBatches } from "@/lib/payout-batches/list-payout-batches";
import { sendPayoutFile } from "@/lib/payout-batches/payout-file";
import { getConfig } from "@/lib/runtime";
import { BATCH_BODY_LIMIT_BYTES, payoutFileRequest } from "@/lib/schemas/payout-batches";

/** The merchant's bulk payouts, newest first. */
export const GET = withSession({ permission: "payouts.create" }, async ({ db, session }) => ({
  batches: await listPayoutBatches(db, { merchantId: session.merchantId, viewerUserId: session.userId }),
}));

/** Sends a checked file as one bulk payout (confirmed by the session's step-up window). */
export const POST = withSession(
  {
    action: "payout.batch",
    request: payoutFileRequest,
    successStatus: 201,
    bodyLimitBytes: BATCH_BODY_LIMIT_BYTES,
  },
  async ({ db, session, body, request }) => {
    const config = getConfig();
    const sent = await sendPayoutFile(db, {
      merchantId: session.merchantId,
      file: Buffer.from(body.file, "base64"),
      sender: body,
      reference: body.reference,
      sendValidRows: body.send_valid_rows ?? false,
      pricing: config.pricing,
      createdByUserId: session.userId,
      audit: sessionSource(session, request),
      approvalSeconds: config.withdrawalApprovalSeconds,
    });
    return {
      id: sent.batchId,
      is_repeat: sent.isRepeat,
      needs_approval: sent.needsApproval,
      payouts: sent.payouts,
    };
  },
);
