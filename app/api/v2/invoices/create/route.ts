import { baseUrlFor, hdSeed, invoiceSettings } from "@/lib/api/runtime-values";
import { withMerchantSignature } from "@/lib/api/with-merchant-signature";
import { createInvoice } from "@/lib/invoices/create-invoice";
import { toInvoiceResponse } from "@/lib/invoices/to-invoice-response";
import { createInvoiceEndpoint } from "@/lib/schemas/invoices";

export const POST = withMerchantSignature(createInvoiceEndpoint, async ({ db, merchantId, body, request }) =>
  toInvoiceResponse(
    await createInvoice(db, {
      merchantId,
      request: body,
      settings: invoiceSettings(),
      seed: await hdSeed(db),
    }),
    baseUrlFor(request),
  ),
);
