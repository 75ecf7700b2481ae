import { withMerchantSignature } from "@/lib/api/with-merchant-signature";
import { findInvoiceId } from "@/lib/invoices/find-invoice-id";
import { listInvoiceRefundClaims } from "@/lib/refunds/read-refund";
import { toRefundResponse } from "@/lib/refunds/to-refund-response";
import { listRefundsEndpoint } from "@/lib/schemas/refunds";

export const POST = withMerchantSignature(listRefundsEndpoint, async ({ db, merchantId, params }) => {
  const invoiceId = await findInvoiceId(db, merchantId, params.foreign_id ?? "");
  const refunds = await listInvoiceRefundClaims(db, { merchantId, invoiceId });
  return refunds.map((refund) => toRefundResponse(refund));
});
