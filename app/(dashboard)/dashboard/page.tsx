import { GettingStartedChecklist } from "@/components/dashboard/getting-started";
import { VolumeChart } from "@/components/dashboard/volume-chart";
import { Money } from "@/components/ui/money";
import { requireSession } from "@/lib/auth/session";
import { findCurrency } from "@/lib/currencies/registry";
import { getDb } from "@/lib/db/client";
import { listBalances } from "@/lib/ledger/list-balances";
import { valueDailyVolume } from "@/lib/ledger/value-daily-volume";
import { findMainFiat } from "@/lib/merchants/find-main-fiat";
import { loadGettingStarted } from "@/lib/merchants/load-getting-started";
import { getConfig } from "@/lib/runtime";

export default async function OverviewPage() {
  const session = await requireSession({ permission: "dashboard.view" });
  const db = getDb();
  const progress = await loadGettingStarted(db, session.merchantId);
  const balances = await listBalances(db, session.merchantId);
  // The chart speaks the merchant's own fiat: the one they invoice in most (USD before any invoice).
  const displayCurrency = await findMainFiat(db, session.merchantId);
  const volume = await valueDailyVolume(db, {
    merchantId: session.merchantId,
    currency: displayCurrency,
    minorUnit: findCurrency(displayCurrency)?.minorUnit ?? 2,
  });
  const hasMoved = volume.days.some((d) => d.incoming !== 0n || d.outgoing !== 0n);
  return (
    <>
      <h1 className="mb-4 text-2xl font-bold tracking-tight">Overview</h1>
      <GettingStartedChecklist progress={progress} isSandbox={getConfig().isSandbox} role={session.role} />
      <h2 className="text-xl font-semibold">Balances</h2>
      <div className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4">
        {balances.map((b) => (
          <div
            key={b.currency}
            className="rounded-md border border-slate-200 px-3 py-2 dark:border-slate-800"
          >
            <div className="text-xs text-slate-600 dark:text-slate-400">{b.currency}</div>
            <div className="break-all font-mono text-base">
              <Money amount={b.balance} code={b.currency} />
            </div>
          </div>
        ))}
      </div>
      <h2 className="mt-8 text-xl font-semibold">Money in and out, last 14 days</h2>
      {hasMoved || volume.unpriced.length > 0 ? (
        <VolumeChart currency={volume.currency} days={volume.days} />
      ) : (
        <p className="mt-2 text-slate-700 dark:text-slate-300">
          Nothing has moved yet. Create an invoice or, in the sandbox, credit a balance to see activity here.
        </p>
      )}
      {volume.unpriced.length > 0 && (
        <p className="mt-2 text-sm text-slate-700 dark:text-slate-300">
          Not in the chart, because there is no {displayCurrency} rate for them now:{" "}
          {volume.unpriced.join(", ")}.
        </p>
      )}
    </>
  );
}
