"use client";

import { useLinkStatus } from "next/link";
import { createContext, type ReactNode, useCallback, useContext, useEffect, useState } from "react";

/** Tells the dashboard's header that a link's page is on its way (true) or has come (false). */
const ReportPending = createContext<(isPending: boolean) => void>(() => {});

/**
 * Put inside a dashboard link: while the page it opens is loading, the header shows its progress
 * bar. The bar lives in the header, not in the link, because the phone menu hides its links (and
 * anything inside them) the moment one is tapped.
 */
export function LinkPending() {
  const { pending } = useLinkStatus();
  const report = useContext(ReportPending);
  useEffect(() => {
    if (!pending) return;
    report(true);
    return () => report(false);
  }, [pending, report]);
  return null;
}

/**
 * The dashboard's loading feedback between pages: a bar along the top of the screen while a page
 * opened from the navigation loads, announced as a progress bar (indeterminate: Next does not say
 * how far along it is). Not a loading.tsx: a Suspense boundary around the pages would start the
 * answer before a page can say 404, and an unknown id must answer 404 (e2e/ui/first-run.spec.ts).
 */
export function NavigationProgress({ children }: { children: ReactNode }) {
  const [pendingCount, setPendingCount] = useState(0);
  const report = useCallback((isPending: boolean) => setPendingCount((n) => n + (isPending ? 1 : -1)), []);
  const isBusy = pendingCount > 0;
  return (
    <ReportPending.Provider value={report}>
      {isBusy && (
        <div
          role="progressbar"
          aria-label="Loading the page"
          className="fixed inset-x-0 top-0 z-50 h-1 overflow-hidden bg-indigo-100 dark:bg-indigo-950"
        >
          <div className="h-full w-1/3 animate-kassa-progress bg-indigo-700 motion-reduce:w-full motion-reduce:animate-pulse dark:bg-indigo-300" />
        </div>
      )}
      {children}
    </ReportPending.Provider>
  );
}
