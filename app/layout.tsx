import type { Metadata, Viewport } from "next";
import { connection } from "next/server";
import type { ReactNode } from "react";
// Pages run in a bundler runtime of their own, with their own copy of lib/ (docs/architecture.md):
// a page that changes a status (the checkout's first open) queues its callback with this copy.
import "@/lib/callbacks/register-callback-bodies";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Kassa", template: "%s · Kassa" },
  description: "Crypto payment processing for merchants: invoices, payouts and a hosted checkout.",
  // Static files live in public/ and are served as they are, at the root (public/icon.svg is /icon.svg).
  icons: { icon: { url: "/icon.svg", type: "image/svg+xml" } },
};

export const viewport: Viewport = { width: "device-width", initialScale: 1 };

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page is rendered per request, so each carries the nonce of its own Content-Security-Policy
  // (proxy.ts): a page prerendered at build time would have none, and its scripts would be refused.
  await connection();
  return (
    <html lang="en">
      <body className="min-h-dvh">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:rounded focus:bg-white focus:px-3 focus:py-2 focus:text-slate-900"
        >
          Skip to content
        </a>
        {children}
      </body>
    </html>
  );
}
