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
        {/* Merchants arrive here first: signing in or up must not need a guessed URL. */}
        <span className="ml-auto flex gap-4">
          <Link
            href="/login"
            className="text-sm font-medium text-indigo-700 hover:underline dark:text-indigo-300"
          >
            Sign in
          </Link>
          <Link
            href="/signup"
            className="text-sm font-medium text-indigo-700 hover:underline dark:text-indigo-300"
          >
            Sign up
          </Link>
        </span>
      </nav>
    </header>
  );
}
