import type { CheckoutView } from "@/lib/checkout/checkout-view";

/** An open server-sent event stream read as it arrives: the invoice events so far, and whether it ended. */
export type StreamReader = {
  views: CheckoutView[];
  comments: string[];
  isEnded: () => boolean;
  /** Closes it from the client's side, as a browser leaving the page does. */
  cancel: () => Promise<void>;
};

/** Reads a text/event-stream body in the background (the SSE wire format: blocks split by blank lines). */
export function readEventStream(body: ReadableStream<Uint8Array>): StreamReader {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const views: CheckoutView[] = [];
  const comments: string[] = [];
  let isEnded = false;
  let buffer = "";
  void (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let end = buffer.indexOf("\n\n");
        while (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (block.startsWith(":")) comments.push(block.slice(1).trim());
          const data = block
            .split("\n")
            .find((line) => line.startsWith("data: "))
            ?.slice("data: ".length);
          if (block.startsWith("event: invoice") && data) views.push(JSON.parse(data));
          end = buffer.indexOf("\n\n");
        }
      }
    } catch {
      // cancelled by the test
    }
    isEnded = true;
  })();
  return {
    views,
    comments,
    isEnded: () => isEnded,
    cancel: async () => {
      await reader.cancel().catch(() => {});
    },
  };
}
