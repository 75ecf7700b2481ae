import QRCode from "qrcode";
import { errorResponse } from "@/lib/api/error-response";
import { baseUrlFor } from "@/lib/api/runtime-values";
import { getDb } from "@/lib/db/client";
import { notFound } from "@/lib/errors";
import { loadPaymentLinkByToken } from "@/lib/payment-links/load-payment-link";
import { paymentLinkUrl } from "@/lib/payment-links/to-payment-link-response";
import { hasUnstorableText } from "@/lib/unstorable-text";

/** The payment link's URL as a QR code (SVG, drawn on the server), for the dashboard and for print. */
export async function GET(
  request: Request,
  context: { params: Promise<{ token: string }> },
): Promise<Response> {
  try {
    const { token } = await context.params;
    if (hasUnstorableText(token) || !(await loadPaymentLinkByToken(getDb(), { token })))
      throw notFound("No such payment link.");
    const svg = await QRCode.toString(paymentLinkUrl(baseUrlFor(request), token), { type: "svg", margin: 2 });
    return new Response(svg, {
      headers: {
        "content-type": "image/svg+xml",
        "cache-control": "private, max-age=3600",
        "x-robots-tag": "noindex",
      },
    });
  } catch (error) {
    return errorResponse(error);
  }
}
