import Link from "next/link";

export function SiteHeader() {
  return (
    <header className="border-b border-slate-200 dark:border-slate-800">
      <nav
        aria-label="Main"
        className="mx-auto flex max-w-5xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3"
      >
        <Link href="/" className="text-lg font-semibold tracking-tight">
          Kassa
        </Link>
        <Link href="/docs/api" className="text-sm text-slate-700 hover:underline dark:text-slate-300">
          API reference
        </Link>
        <a href="/api/v2/openapi.json" className="text-sm text-slate-700 hover:underline dark:text-slate-300">
          OpenAPI
        </a>
      </nav>
    </header>
  );
}
