"use client";

import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

/**
 * False while the page is only the server's HTML, true once React runs it. A form whose submit is
 * React's (`onSubmit`) keeps its submit button disabled until then: clicked earlier, the browser would
 * send the form itself, as a GET to the page's own address, with every field (a password, a payout's
 * receiver) in the URL, and show a fresh form.
 */
export function useIsHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
