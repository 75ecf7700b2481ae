"use client";

import "./globals.css";

/**
 * What shows when the root layout itself fails. It replaces that layout, so it brings its own
 * document and stylesheet; Next's built-in one styles itself with inline styles, which the pages'
 * Content-Security-Policy (proxy.ts) refuses.
 */
export default function GlobalError({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <html lang="en">
      <body className="min-h-dvh">
        <title>Something went wrong · Kassa</title>
        <main id="main" className="mx-auto max-w-md px-4 py-10">
          <h1 className="text-2xl font-bold tracking-tight">Something went wrong on our side</h1>
          <p className="mt-3 text-slate-700 dark:text-slate-300">
            Try again in a moment. If it keeps happening, the server&apos;s log has the details.
          </p>
          <button
            type="button"
            onClick={reset}
            className="mt-6 rounded-md bg-brand-600 px-4 py-2 font-medium text-white hover:bg-brand-700"
          >
            Try again
          </button>
        </main>
      </body>
    </html>
  );
}
