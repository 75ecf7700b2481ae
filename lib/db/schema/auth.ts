import { index, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { updatedAt } from "./columns";

/**
 * Sign-in throttles, one row per e-mail (`email:<address>`) and per client address (`ip:<address>`):
 * the failures counted so far and when the next attempt may run. Counted and checked in one upsert
 * before any password is hashed, so concurrent guesses cannot slip past the limit; held in the
 * database, so every instance agrees. Rows untouched for a day are deleted as new ones are written.
 */
export const signInThrottles = pgTable(
  "sign_in_throttles",
  {
    key: text("key").primaryKey(),
    failures: integer("failures").notNull(),
    nextAllowedAt: timestamp("next_allowed_at", { withTimezone: true }).notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [index("sign_in_throttles_updated_idx").on(t.updatedAt)],
);

/**
 * Addresses each account has signed in from, for 90 days: an attempt from one of them is throttled
 * on its own (e-mail, address) pair, so strangers failing against the e-mail elsewhere cannot slow
 * the owner down where they usually sign in. Rows older than 90 days are deleted as new ones are written.
 */
export const signInAddresses = pgTable(
  "sign_in_addresses",
  {
    email: text("email").notNull(),
    ip: text("ip").notNull(),
    lastSuccessAt: timestamp("last_success_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: "sign_in_addresses_pkey", columns: [t.email, t.ip] }),
    index("sign_in_addresses_last_success_idx").on(t.lastSuccessAt),
  ],
);
