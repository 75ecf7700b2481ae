import QRCode from "qrcode";
import { errorResponse } from "@/lib/api/error-response";
import { baseUrlFor } from "@/lib/api/runtime-values";
import { getDb } from "@/lib/db/client";
import { notFound } from "@/lib/errors";
import { loadInvoiceByToken } from "@/lib/invoices/load-invoice";
import { checkoutUrl } from "@/lib/invoices/to-invoice-response";
import { hasUnstorableText } from "@/lib/unstorable-text";

/** The checkout link as a QR code, for a merchant to show a customer in person. */
export async function GET(
  request: Request,
  context: { params: Promise<{ token: string }> },
): Promise<Response> {
  try {
    const { token } = await context.params;
    if (hasUnstorableText(token) || !(await loadInvoiceByToken(getDb(), token)))
      throw notFound("No such invoice.");
    const svg = await QRCode.toString(checkoutUrl(baseUrlFor(request), token), { type: "svg", margin: 2 });
    return new Response(svg, {
      headers: { "content-type": "image/svg+xml", "cache-control": "private, max-age=3600" },
    });
  } catch (error) {
    return errorResponse(error);
  }
}
