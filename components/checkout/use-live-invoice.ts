"use client";

import { useEffect, useState } from "react";
import type { CheckoutView } from "@/lib/checkout/checkout-view";

const POLL_MS = 3_000;
/**
 * How long a refused or dropped page waits before it opens the stream again, doubling per failure.
 * EventSource hides the refusal's status and Retry-After, so the cap is the server's Retry-After
 * (30 s, lib/notify/stream-admission.ts): a page never waits longer than the server asks.
 */
const FIRST_RETRY_MS = 5_000;
const MAX_RETRY_MS = 30_000;

/**
 * The invoice as it changes: server-sent events from /api/checkout/<token>/events. While the stream
 * is refused (429/503) or down, the page polls every 3 seconds and tries the stream again after a
 * backoff; once a stream opens, polling stops. Stops once the invoice is paid: an expired or
 * cancelled invoice is still watched, so a payment arriving late is shown at once.
 */
export function useLiveInvoice(initial: CheckoutView): [CheckoutView, (view: CheckoutView) => void] {
  const [view, setView] = useState(initial);
  const isDone = view.status === "confirmed";
  useEffect(() => {
    if (isDone) return;
    let poll: ReturnType<typeof setInterval> | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let source: EventSource | undefined;
    let retryMs = FIRST_RETRY_MS;
    const startPolling = () => {
      if (poll) return;
      poll = setInterval(async () => {
        try {
          const response = await fetch(`/api/checkout/${view.token}`, { cache: "no-store" });
          if (response.ok) setView(await response.json());
        } catch {
          // offline for a moment: the next poll tries again
        }
      }, POLL_MS);
    };
    const stopPolling = () => {
      if (poll) clearInterval(poll);
      poll = undefined;
    };
    const openStream = () => {
      retry = undefined;
      const opened = new EventSource(`/api/checkout/${view.token}/events`);
      source = opened;
      opened.addEventListener("invoice", (event) =>
        setView(JSON.parse((event as MessageEvent<string>).data)),
      );
      opened.onopen = () => {
        retryMs = FIRST_RETRY_MS;
        stopPolling();
      };
      opened.onerror = () => {
        // A drop the browser reconnects by itself (CONNECTING) is polled over meanwhile too.
        startPolling();
        if (opened.readyState !== EventSource.CLOSED || retry) return;
        retry = setTimeout(openStream, retryMs);
        retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
      };
    };
    if (typeof EventSource === "undefined") startPolling();
    else openStream();
    return () => {
      source?.close();
      if (retry) clearTimeout(retry);
      stopPolling();
    };
  }, [isDone, view.token]);
  return [view, setView];
}
