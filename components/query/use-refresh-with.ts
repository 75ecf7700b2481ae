"use client";

import { useRouter } from "next/navigation";
import { useTransition } from "react";

/**
 * Says what an action did together with the page's server data fetched again after it: the update (a
 * message, a closed question) and `router.refresh()` run in one transition, so React commits them
 * together once the new data is in. "Invoice cancelled." never stands beside a status that still says
 * pending, and nothing on the page changes again after the words are shown (a browser test, or a
 * screen reader, that acts on the message finds the page settled). `isRefreshing` covers the fetch, so
 * the button can stay busy until then.
 */
export function useRefreshWith(): {
  isRefreshing: boolean;
  refreshWith: (update: () => void) => void;
} {
  const router = useRouter();
  const [isRefreshing, startTransition] = useTransition();
  const refreshWith = (update: () => void) =>
    startTransition(() => {
      update();
      router.refresh();
    });
  return { isRefreshing, refreshWith };
}
