import { pathId } from "@/lib/api/path-id";
import { withSession } from "@/lib/api/with-session";
import { payoutBatchResultCsv } from "@/lib/payout-batches/payout-batch-result-csv";
import { readPayoutBatch } from "@/lib/payout-batches/read-payout-batch";

/** The result file: each payout's line, id, status and txid, for the merchant's records. */
export const GET = withSession({ permission: "payouts.create" }, async ({ db, session, params }) => {
  const batchId = pathId(params, "No such bulk payout.");
  const view = await readPayoutBatch(db, { merchantId: session.merchantId, batchId });
  return new Response(payoutBatchResultCsv(view), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="kassa-bulk-payout-${view.id}.csv"`,
      "cache-control": "no-store",
    },
  });
});
