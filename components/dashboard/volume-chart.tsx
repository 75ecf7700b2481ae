import { displayAmount } from "@/lib/checkout/present";
import { parseStoredAmount } from "@/lib/money";

type Day = { day: string; incoming: string; outgoing: string };

function lastDays(count: number): string[] {
  const today = new Date();
  return Array.from({ length: count }, (_, i) => {
    const date = new Date(
      Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - (count - 1 - i)),
    );
    return date.toISOString().slice(0, 10);
  });
}

/**
 * Incoming (up) and outgoing (down) volume per day, drawn on the server as SVG, with the same numbers
 * in a table for screen readers. Heights are relative within one currency; amounts stay decimal strings.
 */
export function VolumeChart({ currency, days }: { currency: string; days: Day[] }) {
  const byDay = new Map(days.map((d) => [d.day, d]));
  const series = lastDays(14).map((day) => byDay.get(day) ?? { day, incoming: "0", outgoing: "0" });
  const max = series.reduce((m, d) => {
    const larger =
      parseStoredAmount(d.incoming) > parseStoredAmount(d.outgoing)
        ? parseStoredAmount(d.incoming)
        : parseStoredAmount(d.outgoing);
    return larger > m ? larger : m;
  }, 1n);
  const height = (value: string) => (Number((parseStoredAmount(value) * 1000n) / max) / 1000) * 50;
  return (
    <figure className="mt-4">
      <figcaption className="text-sm font-medium">{currency}</figcaption>
      <svg viewBox="0 0 280 110" className="mt-1 h-28 w-full max-w-xl" aria-hidden="true">
        <line
          x1="0"
          y1="55"
          x2="280"
          y2="55"
          className="stroke-slate-300 dark:stroke-slate-700"
          strokeWidth="1"
        />
        {series.map((d, i) => (
          <g key={d.day}>
            <rect
              x={i * 20 + 4}
              y={55 - height(d.incoming)}
              width="12"
              height={height(d.incoming)}
              className="fill-emerald-600"
            />
            <rect x={i * 20 + 4} y={55} width="12" height={height(d.outgoing)} className="fill-rose-600" />
          </g>
        ))}
      </svg>
      <table className="sr-only">
        <caption>{currency}: money in and out per day</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">In</th>
            <th scope="col">Out</th>
          </tr>
        </thead>
        <tbody>
          {series
            .filter((d) => d.incoming !== "0" || d.outgoing !== "0")
            .map((d) => (
              <tr key={d.day}>
                <td>{d.day}</td>
                <td>{displayAmount(d.incoming, currency)}</td>
                <td>{displayAmount(d.outgoing, currency)}</td>
              </tr>
            ))}
        </tbody>
      </table>
    </figure>
  );
}
