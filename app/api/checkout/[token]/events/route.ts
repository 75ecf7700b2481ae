import { errorResponse } from "@/lib/api/error-response";
import { invoiceSettings } from "@/lib/api/runtime-values";
import { requestAddress } from "@/lib/auth/request-address";
import { getDb } from "@/lib/db/client";
import { KassaError, notFound } from "@/lib/errors";
import { loadInvoiceByToken } from "@/lib/invoices/load-invoice";
import { checkoutHub } from "@/lib/notify/checkout-hub-slot";
import { getConfig } from "@/lib/runtime";
import { hasUnstorableText } from "@/lib/unstorable-text";

/**
 * Server-sent events for the checkout page: the invoice's view now and whenever it changes, pushed
 * by the database (lib/notify/checkout-hub.ts: no query per open stream), a heartbeat comment
 * against idle proxies, and the end of the stream once the invoice is paid (an expired or cancelled
 * one stays watched: a late payment is shown as it arrives). Capped per invoice and per client
 * address (429) and per process (503), each with Retry-After; the page polls the invoice when the
 * stream is refused or fails (components/checkout/use-live-invoice.ts).
 */
export async function GET(
  request: Request,
  context: { params: Promise<{ token: string }> },
): Promise<Response> {
  const { token } = await context.params;
  let hub: Awaited<ReturnType<typeof checkoutHub>>;
  try {
    if (hasUnstorableText(token)) throw notFound("No such invoice.");
    hub = await checkoutHub({ settings: invoiceSettings(), limits: getConfig().checkoutStreams });
    // Another viewer of the same invoice already proved it exists: no query for this one.
    if (!hub.isWatching(token) && (await loadInvoiceByToken(getDb(), token)) === undefined)
      throw notFound("No such invoice.");
  } catch (error) {
    return errorResponse(error);
  }
  const address = requestAddress(request);
  let opened: ReturnType<typeof hub.open> | undefined;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      let isClosed = false;
      const sink = {
        send: (bytes: Uint8Array) => {
          if (isClosed) return;
          try {
            controller.enqueue(bytes);
          } catch {
            isClosed = true;
          }
        },
        end: () => {
          if (isClosed) return;
          isClosed = true;
          try {
            controller.close();
          } catch {
            // already closed by the client
          }
        },
      };
      opened = hub.open({ token, address, sink });
      if (opened instanceof KassaError) return;
      const { close } = opened;
      if (request.signal.aborted) return close();
      request.signal.addEventListener("abort", close, { once: true });
    },
    cancel() {
      if (opened && !(opened instanceof KassaError)) opened.close();
    },
  });
  // start() runs synchronously inside the constructor: a refusal is known before answering.
  if (opened instanceof KassaError) {
    await stream.cancel();
    return errorResponse(opened);
  }
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
