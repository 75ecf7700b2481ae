"use client";

import { useEffect, useState } from "react";
import type { CheckoutView } from "@/lib/checkout/checkout-view";

/**
 * The invoice as it changes: server-sent events from /api/checkout/<token>/events, falling back to
 * polling every 3 seconds where the stream is not available. Stops once the invoice is paid: an
 * expired or cancelled invoice is still watched, so a payment arriving late is shown at once.
 */
export function useLiveInvoice(initial: CheckoutView): [CheckoutView, (view: CheckoutView) => void] {
  const [view, setView] = useState(initial);
  const isDone = view.status === "confirmed";
  useEffect(() => {
    if (isDone) return;
    let poll: ReturnType<typeof setInterval> | undefined;
    let source: EventSource | undefined;
    const startPolling = () => {
      if (poll) return;
      poll = setInterval(async () => {
        try {
          const response = await fetch(`/api/checkout/${view.token}`, { cache: "no-store" });
          if (response.ok) setView(await response.json());
        } catch {
          // offline for a moment: the next poll tries again
        }
      }, 3_000);
    };
    if (typeof EventSource === "undefined") startPolling();
    else {
      source = new EventSource(`/api/checkout/${view.token}/events`);
      source.addEventListener("invoice", (event) =>
        setView(JSON.parse((event as MessageEvent<string>).data)),
      );
      source.onerror = () => {
        if (source?.readyState === EventSource.CLOSED) startPolling();
      };
    }
    return () => {
      source?.close();
      if (poll) clearInterval(poll);
    };
  }, [isDone, view.token]);
  return [view, setView];
}
