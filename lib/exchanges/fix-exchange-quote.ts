import "server-only";

import { sql } from "drizzle-orm";
import { type Clock, sqlNow, systemClock } from "@/lib/clock";
import { type Db, queryRows } from "@/lib/db/client";
import { amountSql } from "@/lib/db/schema";
import type { Pricing } from "@/lib/rates/pricing";
import { type ExchangePrice, priceExchange } from "./price-exchange";

/** How long a quoted price holds for /exchange/fixed, in seconds (the public API's `fix_period`). */
export const FIX_PERIOD_SECONDS = 60;

/**
 * Quotes without an exchange are deleted this long after their fix period ended: they can never be
 * executed again, and keeping them only grows the table.
 */
const EXPIRED_QUOTE_RETENTION = sql`interval '1 hour'`;

export type FixedQuote = ExchangePrice & { quoteId: number; fixedAt: Date; releaseAt: Date };

/**
 * /exchange/calculate: prices an exchange at the current rate and keeps the quote, so that
 * /exchange/fixed can execute exactly these amounts at exactly this rate until `releaseAt`
 * (FIX_PERIOD_SECONDS after `fixedAt`). The merchant's own stale quotes are pruned on the way.
 */
export async function fixExchangeQuote(
  db: Db,
  input: {
    merchantId: number;
    senderCurrency: string;
    receiverCurrency: string;
    senderAmount?: bigint;
    receiverAmount?: bigint;
    pricing: Pricing;
    clock?: Clock;
  },
): Promise<FixedQuote> {
  const clock = input.clock ?? systemClock;
  const price = await priceExchange(db, input);
  const now = sqlNow(clock);
  // Raw: one insert with its times from the database's clock and the numeric casts of the rate parts.
  const [row] = await queryRows<{ id: string | number; fixed_at: string | Date; release_at: string | Date }>(
    db,
    sql`insert into exchange_quotes (merchant_id, sender_currency, receiver_currency, sender_amount,
          receiver_amount, fee_amount, price, rate_numerator, rate_denominator, mid_rate_numerator,
          mid_rate_denominator, spread_ppm, fixed_at, release_at)
        values (${input.merchantId}, ${price.senderCurrency}, ${price.receiverCurrency},
          ${amountSql(price.senderAmount)}, ${amountSql(price.receiverAmount)}, ${amountSql(price.feeAmount)},
          ${amountSql(price.price)}, ${price.rate.numerator.toString()}::numeric,
          ${price.rate.denominator.toString()}::numeric, ${price.midRate.numerator.toString()}::numeric,
          ${price.midRate.denominator.toString()}::numeric, ${price.spreadPpm}::integer,
          date_trunc('second', ${now}), date_trunc('second', ${now}) + make_interval(secs => ${FIX_PERIOD_SECONDS}))
        returning id, fixed_at, release_at`,
  );
  await db.execute(
    sql`delete from exchange_quotes where merchant_id = ${input.merchantId} and transaction_id is null
        and release_at < ${now} - ${EXPIRED_QUOTE_RETENTION}`,
  );
  return {
    ...price,
    quoteId: Number(row!.id),
    fixedAt: new Date(row!.fixed_at),
    releaseAt: new Date(row!.release_at),
  };
}
