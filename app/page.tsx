import Link from "next/link";
import { SiteHeader } from "@/components/ui/site-header";
import { CURRENCIES } from "@/lib/currencies/registry";
import { getConfig } from "@/lib/runtime";

// The mode is read from the environment when the page is served, not frozen into the build.
export const dynamic = "force-dynamic";

export default function HomePage() {
  const { mode } = getConfig();
  const crypto = CURRENCIES.filter((c) => c.kind === "crypto");
  return (
    <>
      <SiteHeader />
      <main id="main" className="mx-auto max-w-5xl px-4 py-10">
        <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">Crypto payments for merchants</h1>
        <p className="mt-4 max-w-2xl text-lg text-slate-700 dark:text-slate-300">
          Kassa takes invoices, deposits and payouts in {crypto.length} crypto currencies, with balances kept
          to the last unit in a double-entry ledger. The merchant API is wire-compatible with API v2: point an
          existing client at this server&apos;s{" "}
          <code className="rounded bg-slate-100 px-1 dark:bg-slate-800">/api/v2</code>.
        </p>
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
          This server runs in <strong>{mode}</strong> mode
          {mode === "sandbox" ? ": payments move on a simulated chain, and no real funds are involved." : "."}
        </p>
        <div className="mt-8 flex flex-wrap gap-3">
          <Link
            href="/signup"
            className="rounded-md bg-brand-600 px-4 py-2 font-medium text-white hover:bg-brand-700"
          >
            Create an account
          </Link>
          <Link
            href="/login"
            className="rounded-md border border-slate-300 px-4 py-2 font-medium hover:bg-slate-50 dark:border-slate-600 dark:hover:bg-slate-800"
          >
            Sign in to the dashboard
          </Link>
          <Link
            href="/docs/api"
            className="rounded-md border border-slate-300 px-4 py-2 font-medium hover:bg-slate-50 dark:border-slate-600 dark:hover:bg-slate-800"
          >
            Read the API reference
          </Link>
        </div>
        <section aria-labelledby="currencies" className="mt-12">
          <h2 id="currencies" className="text-xl font-semibold">
            Supported currencies
          </h2>
          <ul className="mt-3 grid grid-cols-2 gap-2 sm:grid-cols-4">
            {CURRENCIES.map((currency) => (
              <li
                key={currency.code}
                className="rounded border border-slate-200 px-3 py-2 dark:border-slate-800"
              >
                <span className="font-mono font-semibold">{currency.code}</span>
                <span className="block text-xs text-slate-600 dark:text-slate-400">{currency.name}</span>
              </li>
            ))}
          </ul>
        </section>
      </main>
    </>
  );
}
