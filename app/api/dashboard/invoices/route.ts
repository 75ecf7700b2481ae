import { randomBytes } from "node:crypto";
import { accountKeys, baseUrlFor, invoiceSettings } from "@/lib/api/runtime-values";
import { withSession } from "@/lib/api/with-session";
import { createInvoice } from "@/lib/invoices/create-invoice";
import { toInvoiceResponse } from "@/lib/invoices/to-invoice-response";
import { dashboardInvoiceRequest } from "@/lib/schemas/invoices";

/** An order id for a merchant who gave none: dated, so it sorts and reads in an export. */
const newForeignId = () =>
  `inv-${new Date().toISOString().slice(0, 10).replace(/-/g, "")}-${randomBytes(4).toString("hex")}`;

/**
 * The dashboard's invoice form: the API's schema with everything but the amount, the currency and
 * the title optional (the customer gives their own details on the checkout), and the same engine
 * as POST /api/v2/invoices/create.
 */
export const POST = withSession(
  { permission: "invoices.manage", request: dashboardInvoiceRequest, successStatus: 201 },
  async ({ db, session, body, request }) => {
    const invoice = await createInvoice(db, {
      merchantId: session.merchantId,
      request: { ...body, foreign_id: body.foreign_id ?? newForeignId(), timer: body.timer ?? true },
      settings: invoiceSettings(),
      keys: await accountKeys(db),
    });
    return { ...toInvoiceResponse(invoice, baseUrlFor(request)), token: invoice.invoice.token };
  },
);
