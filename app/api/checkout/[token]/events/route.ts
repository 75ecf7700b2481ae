import { errorResponse } from "@/lib/api/error-response";
import { hasUnstorableText } from "@/lib/api/read-body";
import { invoiceSettings } from "@/lib/api/runtime-values";
import { checkoutFingerprint } from "@/lib/checkout/checkout-fingerprint";
import { checkoutView } from "@/lib/checkout/checkout-view";
import { getDb } from "@/lib/db/client";
import { notFound } from "@/lib/errors";
import { loadInvoiceByToken } from "@/lib/invoices/load-invoice";
import { needsNewPriceAt, refreshInvoicePrice } from "@/lib/invoices/reprice-invoice";

const CHECK_EVERY_MS = 1_000;
const HEARTBEAT_EVERY_MS = 15_000;
const MAX_OPEN_MS = 30 * 60_000;

/**
 * Server-sent events for the checkout page: the invoice's view whenever it changes (checked once a
 * second), a heartbeat comment against idle proxies, and the end of the stream once the invoice is
 * paid (an expired or cancelled one stays watched: a late payment is shown as it arrives). The
 * browser's EventSource reconnects by itself; the page falls back to polling otherwise.
 */
export async function GET(
  request: Request,
  context: { params: Promise<{ token: string }> },
): Promise<Response> {
  const { token } = await context.params;
  const db = getDb();
  try {
    if (hasUnstorableText(token) || (await checkoutFingerprint(db, token)) === null)
      throw notFound("No such invoice.");
  } catch (error) {
    return errorResponse(error);
  }
  const settings = invoiceSettings();
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      let last = "";
      let lastBeat = Date.now();
      const opened = Date.now();
      let timer: NodeJS.Timeout | undefined;
      const close = () => {
        clearTimeout(timer);
        try {
          controller.close();
        } catch {
          // already closed by the client
        }
      };
      request.signal.addEventListener("abort", close);
      let lockEndsAt: number | null = null;
      const tick = async () => {
        try {
          // A page left open past the rate lock: re-price (if nothing was paid), and the new amount
          // reaches the page through the fingerprint below.
          if (lockEndsAt !== null && Date.now() >= lockEndsAt) {
            lockEndsAt = null;
            const current = await loadInvoiceByToken(db, token);
            if (current) await refreshInvoicePrice(db, current, settings);
          }
          const fingerprint = await checkoutFingerprint(db, token);
          if (fingerprint !== null && fingerprint !== last) {
            last = fingerprint;
            const record = await loadInvoiceByToken(db, token);
            if (record) {
              lockEndsAt = needsNewPriceAt(record, settings);
              const view = await checkoutView(db, record, settings);
              controller.enqueue(encoder.encode(`event: invoice\ndata: ${JSON.stringify(view)}\n\n`));
              // A closed invoice can still receive a late payment: the stream ends only once it is paid.
              if (view.status === "confirmed") return close();
            }
          } else if (Date.now() - lastBeat > HEARTBEAT_EVERY_MS) {
            lastBeat = Date.now();
            controller.enqueue(encoder.encode(": heartbeat\n\n"));
          }
          if (Date.now() - opened > MAX_OPEN_MS) return close();
          timer = setTimeout(tick, CHECK_EVERY_MS);
        } catch {
          close();
        }
      };
      void tick();
    },
  });
  return new Response(stream, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-store, no-transform",
      connection: "keep-alive",
      "x-accel-buffering": "no",
      "x-robots-tag": "noindex",
    },
  });
}
