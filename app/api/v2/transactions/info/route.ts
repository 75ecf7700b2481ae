import { withMerchantSignature } from "@/lib/api/with-merchant-signature";
import { notFound } from "@/lib/errors";
import { transactionInfoEndpoint } from "@/lib/schemas/transactions";
import { lookUpTransaction } from "@/lib/transactions/describe-transaction";

/** GET with a JSON body (the custom server keeps it), or POST with the same body. */
export const GET = withMerchantSignature(transactionInfoEndpoint, async ({ db, merchantId, body }) => {
  const described = await lookUpTransaction(db, merchantId, body);
  if (!described) throw notFound("Transaction not found");
  return described;
});

export const POST = GET;
