import { withMerchantSignature } from "@/lib/api/with-merchant-signature";
import { cancelInvoice } from "@/lib/invoices/cancel-invoice";
import { cancelInvoiceEndpoint } from "@/lib/schemas/invoices";

/** Answers `[]`, as the public API does; also served at `.../cancel/` (server/strip-api-trailing-slash.ts). */
export const POST = withMerchantSignature(cancelInvoiceEndpoint, async ({ db, merchantId, params }) => {
  await cancelInvoice(db, { merchantId, foreignId: params.foreign_id ?? "" });
  const empty: [] = [];
  return empty;
});
