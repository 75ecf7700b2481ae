import { withMerchantSignature } from "@/lib/api/with-merchant-signature";
import { notFound } from "@/lib/errors";
import { transactionInfoEndpoint } from "@/lib/schemas/transactions";
import { describeTransaction } from "@/lib/transactions/describe-transaction";
import { findTransaction } from "@/lib/transactions/find-transaction";

export const dynamic = "force-dynamic";

/** GET with a JSON body (the custom server keeps it), or POST with the same body. */
export const GET = withMerchantSignature(transactionInfoEndpoint, async ({ db, merchantId, body }) => {
  const found = await findTransaction(db, merchantId, body);
  if (!found) throw notFound("Transaction not found");
  return describeTransaction(db, found.id, found.type);
});

export const POST = GET;
