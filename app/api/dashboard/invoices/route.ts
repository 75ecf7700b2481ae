import { accountKeys, baseUrlFor, invoiceSettings } from "@/lib/api/runtime-values";
import { withSession } from "@/lib/api/with-session";
import { createInvoice } from "@/lib/invoices/create-invoice";
import { toInvoiceResponse } from "@/lib/invoices/to-invoice-response";
import { createInvoiceRequest } from "@/lib/schemas/invoices";

/** The dashboard's invoice form: the same schema and engine as POST /api/v2/invoices/create. */
export const POST = withSession(
  { permission: "invoices.manage", request: createInvoiceRequest, successStatus: 201 },
  async ({ db, session, body, request }) => {
    const invoice = await createInvoice(db, {
      merchantId: session.merchantId,
      request: body,
      settings: invoiceSettings(),
      keys: await accountKeys(db),
    });
    return { ...toInvoiceResponse(invoice, baseUrlFor(request)), token: invoice.invoice.token };
  },
);
