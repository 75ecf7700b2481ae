import { baseUrlFor } from "@/lib/api/runtime-values";
import { withMerchantSignature } from "@/lib/api/with-merchant-signature";
import { cancelInvoice } from "@/lib/invoices/cancel-invoice";
import { toInvoiceResponse } from "@/lib/invoices/to-invoice-response";
import { cancelInvoiceEndpoint } from "@/lib/schemas/invoices";

export const POST = withMerchantSignature(
  cancelInvoiceEndpoint,
  async ({ db, merchantId, params, request }) =>
    toInvoiceResponse(
      await cancelInvoice(db, { merchantId, foreignId: params.foreign_id ?? "" }),
      baseUrlFor(request),
    ),
);
