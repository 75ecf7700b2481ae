import { sql } from "drizzle-orm";
import { bigint, bigserial, check, index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { createdAt, money, wholeNumber } from "./columns";
import { currencies, merchantRef } from "./core";
import { transactions } from "./transactions";

/**
 * A price fixed by /exchange/calculate for its fix period (`fixed_at` to `release_at`). It is kept
 * so that /exchange/fixed can execute exactly the quoted amounts at exactly the quoted rate; once an
 * exchange executes it, `transaction_id` names that exchange and the quote cannot be used again.
 */
export const exchangeQuotes = pgTable(
  "exchange_quotes",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    merchantId: merchantRef(),
    senderCurrency: text("sender_currency")
      .notNull()
      .references(() => currencies.code),
    receiverCurrency: text("receiver_currency")
      .notNull()
      .references(() => currencies.code),
    senderAmount: money("sender_amount").notNull(),
    receiverAmount: money("receiver_amount").notNull(),
    feeAmount: money("fee_amount").notNull(),
    /** The rate as the wire showed it (8 digits, rounded down): what /exchange/fixed must send back. */
    price: money("price").notNull(),
    /** Receiver units per sender unit, spread included (exact ratio). */
    rateNumerator: wholeNumber("rate_numerator").notNull(),
    rateDenominator: wholeNumber("rate_denominator").notNull(),
    midRateNumerator: wholeNumber("mid_rate_numerator").notNull(),
    midRateDenominator: wholeNumber("mid_rate_denominator").notNull(),
    spreadPpm: integer("spread_ppm").notNull(),
    fixedAt: timestamp("fixed_at", { withTimezone: true }).notNull(),
    releaseAt: timestamp("release_at", { withTimezone: true }).notNull(),
    transactionId: bigint("transaction_id", { mode: "number" }).references(() => transactions.id),
  },
  (t) => [
    index("exchange_quotes_open_idx")
      .on(t.merchantId, t.senderCurrency, t.receiverCurrency, t.price)
      .where(sql`${t.transactionId} is null`),
    index("exchange_quotes_release_idx").on(t.merchantId, t.releaseAt).where(sql`${t.transactionId} is null`),
  ],
);

/**
 * A balance-to-balance exchange (its id, status and foreign_id live on `transactions`). Every
 * amount is fixed when it is accepted: `sender_amount` leaves the sender balance then, and
 * `receiver_amount` reaches the receiver balance when it is confirmed; `fee_amount` (receiver
 * currency) is the spread Kassa kept, booked to platform:fees under `fee_type`.
 */
export const exchanges = pgTable(
  "exchanges",
  {
    transactionId: bigint("transaction_id", { mode: "number" })
      .primaryKey()
      .references(() => transactions.id),
    merchantId: merchantRef(),
    kind: text("kind", { enum: ["fixed", "now"] }).notNull(),
    quoteId: bigint("quote_id", { mode: "number" }).references(() => exchangeQuotes.id),
    senderCurrency: text("sender_currency")
      .notNull()
      .references(() => currencies.code),
    receiverCurrency: text("receiver_currency")
      .notNull()
      .references(() => currencies.code),
    senderAmount: money("sender_amount").notNull(),
    receiverAmount: money("receiver_amount").notNull(),
    feeAmount: money("fee_amount").notNull(),
    feeType: text("fee_type").notNull(),
    price: money("price").notNull(),
    rateNumerator: wholeNumber("rate_numerator").notNull(),
    rateDenominator: wholeNumber("rate_denominator").notNull(),
    midRateNumerator: wholeNumber("mid_rate_numerator").notNull(),
    midRateDenominator: wholeNumber("mid_rate_denominator").notNull(),
    spreadPpm: integer("spread_ppm").notNull(),
    createdAt: createdAt(),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
  },
  (t) => [
    index("exchanges_merchant_idx").on(t.merchantId),
    check("exchanges_kind_check", sql`${t.kind} in ('fixed', 'now')`),
    check(
      "exchanges_amounts_check",
      sql`${t.senderAmount} > 0 AND ${t.receiverAmount} > 0 AND ${t.feeAmount} >= 0`,
    ),
  ],
);
