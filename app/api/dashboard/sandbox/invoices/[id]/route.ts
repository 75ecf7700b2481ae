import { invoiceStatusLabel } from "@/components/dashboard/invoice-status";
import { pathId } from "@/lib/api/path-id";
import { withSession } from "@/lib/api/with-session";
import { paySandboxInvoice } from "@/lib/chain/sandbox/pay-invoice";
import { notFound } from "@/lib/errors";
import { expireInvoiceNow } from "@/lib/invoices/expire-invoice-now";
import { loadInvoiceById } from "@/lib/invoices/load-invoice";
import { formatAmount } from "@/lib/money";
import { sandboxInvoiceActionRequest } from "@/lib/schemas/dashboard";

/** The sandbox panel follows an invoice it acted on: its status in words. */
export const GET = withSession(
  { permission: "sandbox.use", isSandboxOnly: true },
  async ({ db, session, params }) => {
    const record = await loadInvoiceById(db, pathId(params, "No such invoice."));
    if (!record || record.merchantId !== session.merchantId) throw notFound("No such invoice.");
    return {
      id: record.id,
      status: record.status,
      reason: record.invoice.statusReason,
      label: invoiceStatusLabel(record.status, record.invoice.statusReason),
    };
  },
);

/** One click on an invoice: pay exactly, less or more (blocks mined after), or expire it now. */
export const POST = withSession(
  {
    permission: "sandbox.use",
    isSandboxOnly: true,
    request: sandboxInvoiceActionRequest,
    successStatus: 201,
  },
  async ({ db, session, params, body }) => {
    const id = pathId(params, "No such invoice.");
    if (body.action === "expire") {
      await expireInvoiceNow(db, { merchantId: session.merchantId, invoiceId: id });
      return { action: body.action };
    }
    const how = ({ pay_exact: "exact", pay_under: "under", pay_over: "over" } as const)[body.action];
    const payment = await paySandboxInvoice(db, {
      merchantId: session.merchantId,
      invoiceId: id,
      how,
    });
    return {
      action: body.action,
      txid: payment.txid,
      currency: payment.currency,
      amount: formatAmount(payment.amount),
      blocks: payment.blocks,
    };
  },
);
