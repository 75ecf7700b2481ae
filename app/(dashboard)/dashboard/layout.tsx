import type { Metadata } from "next";
import type { ReactNode } from "react";
import { DashboardNav } from "@/components/dashboard/dashboard-nav";
import { QueryProvider } from "@/components/query/query-provider";
import { StepUpDialog } from "@/components/step-up/step-up-dialog";
import { hasSecondFactor } from "@/lib/auth/has-second-factor";
import { requireSession } from "@/lib/auth/session";
import { getDb } from "@/lib/db/client";
import { getConfig } from "@/lib/runtime";

export const metadata: Metadata = { title: { default: "Dashboard", template: "%s · Kassa dashboard" } };

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const session = await requireSession();
  const { isSandbox } = getConfig();
  return (
    <QueryProvider>
      <DashboardNav
        merchantName={session.merchantName}
        email={session.email}
        isSandbox={isSandbox}
        role={session.role}
      />
      <main id="main" className="mx-auto w-full max-w-6xl px-4 py-6">
        {isSandbox && (
          <p className="mb-4 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-200">
            Sandbox mode: payments move on a simulated chain; no real funds are involved.
          </p>
        )}
        {children}
      </main>
      <StepUpDialog hasTotp={await hasSecondFactor(getDb(), session.userId)} />
    </QueryProvider>
  );
}
