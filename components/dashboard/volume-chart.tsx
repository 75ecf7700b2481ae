import { dashboardAmount } from "@/components/dashboard/dashboard-amount";
import { ScrollRegion } from "@/components/ui/scroll-region";
import type { ValuedDay } from "@/lib/ledger/value-daily-volume";

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "24 Nov" from "2026-11-24", without Date (and so without any time zone). */
function shortDay(day: string): string {
  const [, month, date] = day.split("-");
  return `${Number(date)} ${MONTHS[Number(month) - 1]}`;
}

/** How far up (or down) from the zero line a value reaches, as a percentage of half the plot. */
function reach(value: bigint, max: bigint): number {
  const magnitude = value < 0n ? -value : value;
  // Pixel geometry only: the amounts themselves are never turned into numbers.
  return Number((magnitude * 10_000n) / max) / 100;
}

function Swatch({ className }: { className: string }) {
  return <span aria-hidden="true" className={`inline-block size-3 rounded-sm ${className}`} />;
}

/**
 * Money in (up, green), out (down, red) and net (a dark mark) per UTC day, all in one display
 * currency, drawn in HTML so the dates and values stay readable text at 375 px. The picture is
 * described for screen readers by its totals and repeated, day by day, in the table below it.
 */
export function VolumeChart({ currency, days }: { currency: string; days: ValuedDay[] }) {
  const show = (units: bigint) => dashboardAmount(units, currency);
  const total = (pick: (d: ValuedDay) => bigint) => days.reduce((sum, d) => sum + pick(d), 0n);
  const max = days.reduce((m, d) => {
    const larger = d.incoming > d.outgoing ? d.incoming : d.outgoing;
    return larger > m ? larger : m;
  }, 0n);
  const scale = max > 0n ? max : 1n;
  const first = days[0]?.day ?? "";
  const last = days.at(-1)?.day ?? "";
  return (
    <figure className="mx-auto mt-4 w-full max-w-3xl">
      <figcaption className="text-sm text-slate-700 dark:text-slate-300">
        {shortDay(first)} to {shortDay(last)} (UTC days), every currency valued in {currency} at today&apos;s
        rates.
      </figcaption>
      <ul aria-label="Legend and 14-day totals" className="mt-2 flex flex-wrap gap-x-5 gap-y-1 text-sm">
        <li className="flex items-center gap-1.5">
          <Swatch className="bg-emerald-600" /> In{" "}
          <span className="font-mono">{show(total((d) => d.incoming))}</span>
        </li>
        <li className="flex items-center gap-1.5">
          <Swatch className="bg-rose-600" /> Out{" "}
          <span className="font-mono">{show(total((d) => d.outgoing))}</span>
        </li>
        <li className="flex items-center gap-1.5">
          <Swatch className="bg-slate-900 dark:bg-white" /> Net{" "}
          <span className="font-mono">{show(total((d) => d.net))}</span>
        </li>
      </ul>
      <div
        role="img"
        aria-label={`Bar chart of money in and out per day; the table "Day by day" below gives every value. Largest day: ${show(max)}.`}
        className="mt-3"
      >
        <div className="relative h-48 border-y border-dashed border-slate-300 dark:border-slate-700">
          <span className="absolute left-0 top-0 z-10 bg-white/80 px-1 font-mono text-xs dark:bg-slate-950/80">
            +{show(max)}
          </span>
          <span className="absolute bottom-0 left-0 z-10 bg-white/80 px-1 font-mono text-xs dark:bg-slate-950/80">
            −{show(max)}
          </span>
          <div className="absolute inset-x-0 top-1/2 border-t border-slate-400 dark:border-slate-500" />
          {/* Bars as SVG geometry, not style attributes: the page's Content-Security-Policy refuses
              inline styles (proxy.ts), and an SVG's x/y/height are attributes, not CSS. One unit of
              the 100-unit-high viewBox is 1 % of the plot; the zero line is at 50. */}
          <div className="grid h-full grid-cols-14 gap-1">
            {days.map((d) => {
              const up = reach(d.incoming, scale) / 2;
              const down = reach(d.outgoing, scale) / 2;
              const net = 50 - (d.net < 0n ? -1 : 1) * (reach(d.net, scale) / 2);
              return (
                <div key={d.day} data-day={d.day} className="relative h-full">
                  <svg
                    aria-hidden="true"
                    viewBox="0 0 100 100"
                    preserveAspectRatio="none"
                    className="absolute inset-0 size-full"
                  >
                    <rect x="15" width="70" y={50 - up} height={up} className="fill-emerald-600" />
                    <rect x="15" width="70" y="50" height={down} className="fill-rose-600" />
                    {(d.incoming !== 0n || d.outgoing !== 0n) && (
                      <rect
                        x="0"
                        width="100"
                        y={net - 0.5}
                        height="1"
                        className="fill-slate-900 dark:fill-white"
                      />
                    )}
                  </svg>
                </div>
              );
            })}
          </div>
        </div>
        <div className="mt-1 grid grid-cols-14 gap-1 text-center text-xs text-slate-700 dark:text-slate-300">
          {days.map((d, i) => (
            <span key={d.day} className="leading-tight">
              {Number(d.day.slice(8))}
              {(i === 0 || d.day.endsWith("-01")) && (
                <span className="block">{shortDay(d.day).split(" ")[1]}</span>
              )}
            </span>
          ))}
        </div>
      </div>
      <details className="mt-3">
        <summary className="cursor-pointer text-sm font-medium">Day by day</summary>
        {/* Wide amounts scroll sideways on a phone: the region takes keyboard focus to scroll. */}
        <ScrollRegion label="Day by day">
          <table className="mt-2 w-full text-sm">
            <caption className="sr-only">Money in, out and net per UTC day, in {currency}</caption>
            <thead>
              <tr className="border-b border-slate-200 text-left dark:border-slate-800">
                <th scope="col" className="py-1 pr-3">
                  Day (UTC)
                </th>
                <th scope="col" className="py-1 pr-3 text-right">
                  In
                </th>
                <th scope="col" className="py-1 pr-3 text-right">
                  Out
                </th>
                <th scope="col" className="py-1 text-right">
                  Net
                </th>
              </tr>
            </thead>
            <tbody>
              {days.map((d) => (
                <tr key={d.day} className="border-b border-slate-100 dark:border-slate-900">
                  <th scope="row" className="whitespace-nowrap py-1 pr-3 text-left font-normal">
                    {d.day}
                  </th>
                  <td className="whitespace-nowrap py-1 pr-3 text-right font-mono">{show(d.incoming)}</td>
                  <td className="whitespace-nowrap py-1 pr-3 text-right font-mono">{show(d.outgoing)}</td>
                  <td className="whitespace-nowrap py-1 text-right font-mono">{show(d.net)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      </details>
    </figure>
  );
}
