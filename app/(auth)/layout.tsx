import Link from "next/link";
import type { ReactNode } from "react";

export default function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <main id="main" className="mx-auto w-full max-w-sm px-4 py-10">
      <Link href="/" className="text-lg font-semibold tracking-tight">
        Kassa
      </Link>
      {children}
    </main>
  );
}
