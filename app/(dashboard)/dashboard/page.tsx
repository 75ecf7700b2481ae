import { dashboardAmount } from "@/components/dashboard/dashboard-amount";
import { VolumeChart } from "@/components/dashboard/volume-chart";
import { requireSession } from "@/lib/auth/session";
import { getDb } from "@/lib/db/client";
import { listBalances } from "@/lib/ledger/list-balances";
import { volumeByDay } from "@/lib/ledger/volume-by-day";
import { formatAmount } from "@/lib/money";

export default async function OverviewPage() {
  const session = await requireSession({ permission: "dashboard.view" });
  const db = getDb();
  const balances = await listBalances(db, session.merchantId);
  const volume = await volumeByDay(db, session.merchantId);
  const active = balances.filter((b) => b.balance > 0n || volume.some((v) => v.currency === b.currency));
  return (
    <>
      <h1 className="text-2xl font-bold tracking-tight">Balances</h1>
      <div className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4">
        {balances.map((b) => (
          <div
            key={b.currency}
            className="rounded-md border border-slate-200 px-3 py-2 dark:border-slate-800"
          >
            <div className="text-xs text-slate-600 dark:text-slate-400">{b.currency}</div>
            <div className="break-all font-mono text-base">{dashboardAmount(b.balance, b.currency)}</div>
          </div>
        ))}
      </div>
      <h2 className="mt-8 text-xl font-semibold">Money in and out, last 14 days</h2>
      {active.length === 0 ? (
        <p className="mt-2 text-slate-700 dark:text-slate-300">
          Nothing has moved yet. Create an invoice or, in the sandbox, credit a balance to see activity here.
        </p>
      ) : (
        active.map((b) => (
          <VolumeChart
            key={b.currency}
            currency={b.currency}
            days={volume
              .filter((v) => v.currency === b.currency)
              .map((v) => ({
                day: v.day,
                incoming: formatAmount(v.incoming),
                outgoing: formatAmount(v.outgoing),
              }))}
          />
        ))
      )}
    </>
  );
}
