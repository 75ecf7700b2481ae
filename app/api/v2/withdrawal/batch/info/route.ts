import { withMerchantSignature } from "@/lib/api/with-merchant-signature";
import { readPayoutBatch } from "@/lib/payout-batches/read-payout-batch";
import { toBatchResponse } from "@/lib/payout-batches/to-batch-response";
import { payoutBatchInfoEndpoint } from "@/lib/schemas/payout-batches";

export const POST = withMerchantSignature(payoutBatchInfoEndpoint, async ({ db, merchantId, body }) =>
  toBatchResponse(await readPayoutBatch(db, { merchantId, reference: body.reference })),
);
