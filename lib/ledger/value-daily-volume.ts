import "server-only";

import type { Executor } from "@/lib/db/client";
import { convertParts, type Rate } from "@/lib/rates/rate";
import { memoizedRatesProvider, quote, RateUnavailableError } from "@/lib/rates/rates";
import { volumeByDay } from "./volume-by-day";

export type ValuedDay = { day: string; incoming: bigint; outgoing: bigint; net: bigint };
export type ValuedVolume = {
  currency: string;
  days: ValuedDay[];
  /** Currencies that moved but have no price now: left out of the sums, and said so on screen. */
  unpriced: string[];
};

/** The last `count` UTC days, oldest first, as YYYY-MM-DD. */
function lastDays(count: number, now: Date): string[] {
  return Array.from({ length: count }, (_, i) =>
    new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (count - 1 - i)))
      .toISOString()
      .slice(0, 10),
  );
}

/**
 * The merchant's money in and out per UTC day, every currency valued in one display `currency` at
 * today's mid rate (no spread: it is a picture of value, not a conversion anyone gets). Each day's
 * in and out is summed exactly over its currencies and rounded down once to the display currency's
 * minor unit (convertParts); net is in minus out of those, so the figures on screen add up.
 */
export async function valueDailyVolume(
  db: Executor,
  input: { merchantId: number; currency: string; minorUnit: number; days?: number; now?: Date },
): Promise<ValuedVolume> {
  const count = input.days ?? 14;
  const rows = await volumeByDay(db, input.merchantId, count);
  const moved = [...new Set(rows.map((r) => r.currency))];
  const provider = await memoizedRatesProvider(db, {
    merchantId: input.merchantId,
    currencies: [...moved, input.currency],
  });
  const rates = new Map<string, Rate>();
  const unpriced: string[] = [];
  for (const from of moved) {
    try {
      rates.set(
        from,
        (await quote(db, { merchantId: input.merchantId, from, to: input.currency, spreadPpm: 0, provider }))
          .midRate,
      );
    } catch (error) {
      if (!(error instanceof RateUnavailableError)) throw error;
      unpriced.push(from);
    }
  }
  const days = lastDays(count, input.now ?? new Date()).map((day) => {
    const priced = rows.filter((r) => r.day === day && rates.has(r.currency));
    const sum = (pick: (r: (typeof priced)[number]) => bigint) =>
      convertParts(
        priced.map((r) => ({ amount: pick(r), rate: rates.get(r.currency)! })),
        "down",
        input.minorUnit,
      );
    const incoming = sum((r) => r.incoming);
    const outgoing = sum((r) => r.outgoing);
    return { day, incoming, outgoing, net: incoming - outgoing };
  });
  return { currency: input.currency, days, unpriced };
}
