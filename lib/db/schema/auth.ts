import { index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
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
