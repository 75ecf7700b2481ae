import { withSession } from "@/lib/api/with-session";
import { checkPayoutFile } from "@/lib/payout-batches/payout-file";
import { getConfig } from "@/lib/runtime";
import { BATCH_BODY_LIMIT_BYTES, payoutFileRequest } from "@/lib/schemas/payout-batches";

/** Reads and checks a bulk payout file, sending nothing: problems by line and column, and the totals. */
export const POST = withSession(
  { permission: "payouts.create", request: payoutFileRequest, bodyLimitBytes: BATCH_BODY_LIMIT_BYTES },
  ({ db, session, body }) =>
    checkPayoutFile(db, {
      merchantId: session.merchantId,
      file: Buffer.from(body.file, "base64"),
      sender: body,
      reference: body.reference,
      pricing: getConfig().pricing,
    }),
);
