import { pathId } from "@/lib/api/path-id";
import { withSession } from "@/lib/api/with-session";
import { sessionSource } from "@/lib/audit/session-source";
import { resolveInvoiceException } from "@/lib/invoices/resolve-invoice-exception";
import { resolveInvoiceRequest } from "@/lib/schemas/invoice-resolution";

/** The invoice page's "Mark resolved": closes what the invoice owes without a refund; confirmed, audited, one-way. */
export const POST = withSession(
  { action: "invoice.resolve", request: resolveInvoiceRequest },
  async ({ db, session, body, params, request }) => {
    const resolution = await resolveInvoiceException(db, {
      merchantId: session.merchantId,
      invoiceId: pathId(params, "No such invoice."),
      reason: body.reason,
      note: body.note,
      audit: sessionSource(session, request),
    });
    return {
      reason: resolution.reason,
      note: resolution.note,
      resolved_by: resolution.resolvedBy,
      resolved_at: resolution.resolvedAt.toISOString(),
    };
  },
);
