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
 * Server-sent events for the checkout: the invoice's view now and on each change (database pushes:
 * docs/decisions/checkout-streams.md), heartbeats, and the end once it is paid (an expired or cancelled
 * invoice stays watched for late payments). Capped per invoice and client address (429) and per process
 * (503), with Retry-After; the page then polls instead (components/checkout/use-live-invoice.ts).
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
