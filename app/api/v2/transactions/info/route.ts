import { withMerchantSignature } from "@/lib/api/with-merchant-signature";
import { notFound } from "@/lib/errors";
import { transactionInfoEndpoint } from "@/lib/schemas/transactions";
import { describeTransaction } from "@/lib/transactions/describe-transaction";
import { findTransactionId } from "@/lib/transactions/find-transaction";

export const dynamic = "force-dynamic";

/** GET with a JSON body (the custom server keeps it), or POST with the same body. */
export const GET = withMerchantSignature(transactionInfoEndpoint, async ({ db, merchantId, body }) => {
  const id = await findTransactionId(db, merchantId, body);
  if (id === undefined) throw notFound("Transaction not found");
  return describeTransaction(db, id);
});

export const POST = GET;
