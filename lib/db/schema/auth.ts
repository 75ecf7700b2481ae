import { sql } from "drizzle-orm";
import {
  bigint,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from "drizzle-orm/pg-core";
import { ROLES } from "@/lib/team/permissions";
import { createdAt, updatedAt } from "./columns";
import { merchants, users } from "./core";

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

/** What a sign-up link carries until it is opened: the account to create. */
export type SignUpPayload = { name: string; passwordHash: string };

/**
 * Links sent by e-mail to finish an action without a session: a password reset (30 minutes), a
 * sign-up's confirmation (24 hours) or an invitation to a merchant's team (7 days; `merchant_id`,
 * `role` and `invited_by` say which team, with what role, from whom). Only the token's SHA-256 is stored; `used_at` makes each link
 * single use. Rows past their expiry are deleted as new ones are written.
 */
export const authTokens = pgTable(
  "auth_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    purpose: text("purpose", { enum: ["password_reset", "sign_up", "invitation"] }).notNull(),
    email: text("email").notNull(),
    userId: bigint("user_id", { mode: "number" }).references(() => users.id, { onDelete: "cascade" }),
    payload: jsonb("payload").$type<SignUpPayload>(),
    merchantId: bigint("merchant_id", { mode: "number" }).references(() => merchants.id, {
      onDelete: "cascade",
    }),
    role: text("role", { enum: ROLES }),
    invitedBy: bigint("invited_by", { mode: "number" }).references(() => users.id, { onDelete: "set null" }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    check("auth_tokens_purpose_check", sql`${t.purpose} in ('password_reset', 'sign_up', 'invitation')`),
    check(
      "auth_tokens_invitation_check",
      sql`${t.purpose} <> 'invitation' or (${t.merchantId} is not null and ${t.role} in ('owner', 'admin', 'finance', 'developer', 'viewer'))`,
    ),
    index("auth_tokens_expires_idx").on(t.expiresAt),
    index("auth_tokens_user_idx").on(t.userId),
    index("auth_tokens_merchant_idx").on(t.merchantId),
  ],
);

/**
 * Step-up windows: a session that confirmed its user again (lib/auth/step-up.ts) may make sensitive
 * changes until `expires_at`. Keyed by the SHA-256 of the session's own id (a claim of its JWT), so
 * the window belongs to that one browser's session, not to the user: another session of the same
 * user is not elevated, and a session that ends (sign-out, a password change) takes its window
 * with it. Rows past their end are deleted as new ones are written.
 */
export const stepUpWindows = pgTable(
  "step_up_windows",
  {
    sessionHash: text("session_hash").primaryKey(),
    userId: bigint("user_id", { mode: "number" })
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    index("step_up_windows_user_idx").on(t.userId),
    index("step_up_windows_expires_idx").on(t.expiresAt),
  ],
);
