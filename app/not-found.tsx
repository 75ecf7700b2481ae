import type { Metadata } from "next";
import Link from "next/link";
import { SiteHeader } from "@/components/ui/site-header";

export const metadata: Metadata = { title: "Page not found" };

/**
 * Any path no page answers. Next's built-in page would do, but it styles itself with inline styles,
 * which the pages' Content-Security-Policy (proxy.ts) refuses.
 */
export default function NotFound() {
  return (
    <>
      <SiteHeader />
      <main id="main" className="mx-auto max-w-5xl px-4 py-10">
        <h1 className="text-2xl font-bold tracking-tight">Page not found</h1>
        <p className="mt-3 text-slate-700 dark:text-slate-300">
          There is no page at this address. It may be mistyped, or the page has moved.
        </p>
        <p className="mt-6">
          <Link href="/" className="font-medium text-brand-700 underline dark:text-slate-100">
            Go to the start page
          </Link>
        </p>
      </main>
    </>
  );
}
