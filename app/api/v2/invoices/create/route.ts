import { accountKeys, invoiceSettings } from "@/lib/api/runtime-values";
import { withMerchantSignature } from "@/lib/api/with-merchant-signature";
import { createInvoice } from "@/lib/invoices/create-invoice";
import { toInvoiceResponse } from "@/lib/invoices/to-invoice-response";
import { createInvoiceEndpoint } from "@/lib/schemas/invoices";

export const POST = withMerchantSignature(
  createInvoiceEndpoint,
  async ({ db, merchantId, apiKeyId, body, publicOrigin }) =>
    toInvoiceResponse(
      await createInvoice(db, {
        merchantId,
        apiKeyId,
        request: body,
        settings: invoiceSettings(),
        keys: await accountKeys(db),
      }),
      publicOrigin(),
    ),
);
