import { sql } from "drizzle-orm";
import { bigint, bigserial, index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";
import { merchantRef } from "./core";

/**
 * A callback owed to a merchant: written in the same transaction as the status change it reports,
 * with its body fixed then (the transactions/info object of that moment), so every attempt and
 * every redelivery sends the same bytes. Where it goes is decided at each attempt: the invoice's
 * own `callback_url` if it has one, else the merchant's callback URL of that moment (`url` only
 * records where it was addressed when queued).
 */
export const callbacks = pgTable(
  "callbacks",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    merchantId: merchantRef(),
    transactionId: bigint("transaction_id", { mode: "number" }).notNull(),
    /** What happened, e.g. invoice.confirmed, withdrawal.cancelled. */
    event: text("event").notNull(),
    url: text("url").notNull(),
    body: text("body").notNull(),
    status: text("status", { enum: ["queued", "delivered", "failed"] })
      .notNull()
      .default("queued"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    /**
     * Bumped by every (re)scheduling of the next attempt, each of which queues one job carrying the
     * new value; a job carrying an older one was overtaken (a resend, a retry-all) and does nothing.
     */
    scheduleVersion: integer("schedule_version").notNull().default(0),
    /** Set on a resend: the callback whose body this one repeats. */
    redeliveryOf: bigint("redelivery_of", { mode: "number" }),
    createdAt: createdAt(),
    deliveredAt: timestamp("delivered_at", { withTimezone: true }),
  },
  (t) => [
    index("callbacks_transaction_idx").on(t.transactionId, t.id),
    index("callbacks_merchant_idx").on(t.merchantId, t.id),
    index("callbacks_queued_idx").on(t.transactionId).where(sql`${t.status} = 'queued'`),
  ],
);

/** Every delivery attempt: when, where, what came back, how long it took. */
export const callbackAttempts = pgTable(
  "callback_attempts",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    callbackId: bigint("callback_id", { mode: "number" })
      .notNull()
      .references(() => callbacks.id),
    merchantId: merchantRef(),
    url: text("url").notNull(),
    httpStatus: integer("http_status"),
    error: text("error"),
    latencyMs: integer("latency_ms").notNull(),
    /** The first bytes of the response body, for the delivery log. */
    responseExcerpt: text("response_excerpt"),
    createdAt: createdAt(),
  },
  (t) => [index("callback_attempts_callback_idx").on(t.callbackId, t.id)],
);
