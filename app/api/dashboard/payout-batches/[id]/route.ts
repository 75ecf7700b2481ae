import { pathId } from "@/lib/api/path-id";
import { withSession } from "@/lib/api/with-session";
import { readPayoutBatch } from "@/lib/payout-batches/read-payout-batch";

/** One bulk payout with every payout's progress (the page polls it while payouts are on their way). */
export const GET = withSession({ permission: "payouts.create" }, async ({ db, session, params }) => {
  const batchId = pathId(params, "No such bulk payout.");
  const view = await readPayoutBatch(db, { merchantId: session.merchantId, batchId });
  return { ...view, can_decide: view.created_by_user_id !== session.userId };
});
