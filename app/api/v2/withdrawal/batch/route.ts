import { withMerchantSignature } from "@/lib/api/with-merchant-signature";
import { readPayoutBatch } from "@/lib/payout-batches/read-payout-batch";
import { sendPayoutBatch } from "@/lib/payout-batches/send-payout-batch";
import { toBatchResponse } from "@/lib/payout-batches/to-batch-response";
import { getConfig } from "@/lib/runtime";
import { payoutBatchEndpoint } from "@/lib/schemas/payout-batches";

export const POST = withMerchantSignature(
  payoutBatchEndpoint,
  async ({ db, merchantId, body, apiKey, apiKeyId, clientAddress }) => {
    const config = getConfig();
    const { batchId } = await sendPayoutBatch(db, {
      merchantId,
      reference: body.reference,
      sender: body,
      rows: body.payouts.map((payout, index) => ({ row: index + 1, payout })),
      pricing: config.pricing,
      apiKeyId,
      approvalSeconds: config.withdrawalApprovalSeconds,
      audit: { actor: { kind: "api_key", key: apiKey }, address: clientAddress },
    });
    return toBatchResponse(await readPayoutBatch(db, { merchantId, batchId }));
  },
);
