import QRCode from "qrcode";
import { errorResponse } from "@/lib/api/error-response";
import { invoiceSettings } from "@/lib/api/runtime-values";
import { checkoutView } from "@/lib/checkout/checkout-view";
import { getDb } from "@/lib/db/client";
import { notFound } from "@/lib/errors";
import { loadInvoiceByToken } from "@/lib/invoices/load-invoice";
import { hasUnstorableText } from "@/lib/unstorable-text";

/**
 * The payment URI as a QR code (SVG), drawn on the server so the checkout page ships no QR code
 * library. It encodes the amount still due, so it changes after a partial payment.
 */
export async function GET(
  _request: Request,
  context: { params: Promise<{ token: string }> },
): Promise<Response> {
  try {
    const { token } = await context.params;
    const db = getDb();
    const record = hasUnstorableText(token) ? undefined : await loadInvoiceByToken(db, token);
    if (!record) throw notFound("No such invoice.");
    const view = await checkoutView(db, record, invoiceSettings());
    if (!view.payment_uri) throw notFound("This invoice has no payment address yet.");
    const svg = await QRCode.toString(view.payment_uri, {
      type: "svg",
      margin: 2,
      errorCorrectionLevel: "M",
    });
    return new Response(svg, {
      headers: {
        "content-type": "image/svg+xml",
        "cache-control": "private, max-age=5",
        "x-robots-tag": "noindex",
      },
    });
  } catch (error) {
    return errorResponse(error);
  }
}
