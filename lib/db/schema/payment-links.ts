import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  check,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { createdAt, money } from "./columns";
import { apiKeys, currencies, merchantRef } from "./core";

/**
 * A payment link (docs/decisions/payment-links.md): a reusable public page (/link/<token>) where each
 * customer who starts paying gets an invoice of their own (invoices.payment_link_id). Either a fixed
 * `amount`, or an amount the customer enters between the optional `min_amount` and `max_amount`, in
 * the link's `currency`. Its uses are counted from its invoices, never stored, so they cannot drift.
 */
export const paymentLinks = pgTable(
  "payment_links",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    merchantId: merchantRef(),
    /** The unguessable token in the link's URL; never the numeric id. */
    token: text("token").notNull(),
    title: text("title").notNull(),
    description: text("description"),
    currency: text("currency")
      .notNull()
      .references(() => currencies.code),
    /** Fixed amount; null for an amount the customer enters. */
    amount: money("amount"),
    minAmount: money("min_amount"),
    maxAmount: money("max_amount"),
    /** Which kinds of payer may use it (spec 2.1's sender types): at least one. */
    allowsNatural: boolean("allows_natural").notNull(),
    allowsLegal: boolean("allows_legal").notNull(),
    urlSuccess: text("url_success"),
    urlFailed: text("url_failed"),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    maxUses: integer("max_uses"),
    isActive: boolean("is_active").notNull().default(true),
    /** Invoices started from it so far: numbers each visit's made-up foreign_id. */
    visits: integer("visits").notNull().default(0),
    /** The API key whose request created it: it signs the callbacks of the link's invoices; null from the dashboard. */
    apiKeyId: bigint("api_key_id", { mode: "number" }).references(() => apiKeys.id),
    /** Who created it, as the audit trail names actors. */
    createdBy: text("created_by").notNull(),
    createdAt: createdAt(),
    deactivatedAt: timestamp("deactivated_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("payment_links_token_key").on(t.token),
    index("payment_links_merchant_idx").on(t.merchantId, t.id),
    check(
      "payment_links_amount_kind",
      sql`${t.amount} is null or (${t.minAmount} is null and ${t.maxAmount} is null)`,
    ),
    check("payment_links_amount_positive", sql`${t.amount} is null or ${t.amount} > 0`),
    check(
      "payment_links_range",
      sql`${t.minAmount} is null or ${t.maxAmount} is null or ${t.maxAmount} >= ${t.minAmount}`,
    ),
    check("payment_links_sender_types", sql`${t.allowsNatural} or ${t.allowsLegal}`),
    check("payment_links_max_uses", sql`${t.maxUses} is null or ${t.maxUses} > 0`),
  ],
);
