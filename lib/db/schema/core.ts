import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { ROLES } from "@/lib/team/permissions";
import { createdAt, money } from "./columns";

export const merchants = pgTable(
  "merchants",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    callbackUrl: text("callback_url"),
    /** The public API's optional callback for deposits below the currency's minimum (off by default). */
    isBelowMinimumCallbackOn: boolean("is_below_minimum_callback_on").notNull().default(false),
    /** Set when the merchant finished onboarding in the dashboard (sign-ups go there first). */
    onboardedAt: timestamp("onboarded_at", { withTimezone: true }),
    /** Payments the screening provider scores at or above this (0 to 100, decimal) wait in the review queue. */
    reviewThreshold: text("review_threshold").notNull().default("80"),
    /**
     * The designated callback key: it signs callbacks of transactions made in the dashboard or by
     * Kassa, and of those whose own key is gone (lib/callbacks/resolve-signing-keys.ts). An owner
     * chooses it; null: none chosen yet.
     */
    callbackKeyId: bigint("callback_key_id", { mode: "number" }).references((): AnyPgColumn => apiKeys.id),
    /**
     * A short payment within this share of the amount due counts as paid, in basis points (100 = 1 %,
     * 0 to 1000): integers, so the judgement stays exact. Applied when a payment is judged, not fixed per invoice.
     */
    underpaymentToleranceBp: integer("underpayment_tolerance_bp").notNull().default(0),
    /** Where customers' replies go (Reply-To of their e-mails) and the contact the checkout shows; null: none. */
    supportEmail: text("support_email"),
    createdAt: createdAt(),
  },
  (t) => [
    check(
      "merchants_underpayment_tolerance_check",
      sql`${t.underpaymentToleranceBp} >= 0 and ${t.underpaymentToleranceBp} <= 1000`,
    ),
  ],
);

/** A non-null reference to the owning merchant: every merchant-owned row carries one. */
export const merchantRef = () =>
  bigint("merchant_id", { mode: "number" })
    .notNull()
    .references(() => merchants.id);

export const users = pgTable(
  "users",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    merchantId: merchantRef(),
    email: text("email").notNull(),
    passwordHash: text("password_hash").notNull(),
    /** TOTP second factor: the secret sealed under the master key, set once the user confirmed a code. */
    totpSecretSealed: text("totp_secret_sealed"),
    /** argon2id hashes of the unused one-time recovery codes. */
    recoveryCodes: jsonb("recovery_codes").$type<string[]>(),
    /** The TOTP time step of the last accepted code: a code for this step or an earlier one is a replay. */
    totpLastStep: bigint("totp_last_step", { mode: "number" }),
    /** Carried in each session's token; bumped to end every session (sign-out, password or second-factor change). */
    sessionVersion: integer("session_version").notNull().default(0),
    /** What the user may do in the merchant's dashboard (lib/team/permissions.ts). */
    role: text("role", { enum: ROLES }).notNull().default("owner"),
    /** Set when the member was removed from the team: no sign-in, no session, the address free again. */
    removedAt: timestamp("removed_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    check("users_role_check", sql`${t.role} in ('owner', 'admin', 'finance', 'developer', 'viewer')`),
    uniqueIndex("users_email_key").on(sql`lower(${t.email})`).where(sql`${t.removedAt} is null`),
    index("users_merchant_idx").on(t.merchantId),
  ],
);

export const apiKeys = pgTable(
  "api_keys",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    merchantId: merchantRef(),
    key: text("key").notNull(),
    /** AES-256-GCM under the master key, bound to `key` as associated data. */
    secretSealed: text("secret_sealed").notNull(),
    label: text("label").notNull().default("API key"),
    createdAt: createdAt(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    /** The client address of the last recorded use (recorded at most once a minute, with lastUsedAt). */
    lastUsedIp: text("last_used_ip"),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    /** CIDR ranges the key may be used from; null: any address. */
    allowedIps: text("allowed_ips").array(),
    /** A rolled key's end of overlap: after it the key answers like a revoked one. */
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    /**
     * Whether the key may move money through /api/v2 (withdrawals, exchanges): only a member who
     * may create payouts creates such a key. Keys from before scopes kept full rights (0032).
     */
    canMoveMoney: boolean("can_move_money").notNull().default(false),
    /** The member who created (or rolled into) the key; null: the operator, or before 0032. */
    createdBy: bigint("created_by", { mode: "number" }).references(() => users.id, { onDelete: "set null" }),
    /** The key a roll replaced this one with: callbacks of this key's transactions follow it. */
    replacedById: bigint("replaced_by_id", { mode: "number" }).references((): AnyPgColumn => apiKeys.id),
  },
  (t) => [uniqueIndex("api_keys_key_key").on(t.key), index("api_keys_merchant_idx").on(t.merchantId)],
);

/** The currency registry, written from lib/currencies/registry.ts on every start. */
export const currencies = pgTable("currencies", {
  code: text("code").primaryKey(),
  id: integer("id").notNull().unique(),
  kind: text("kind", { enum: ["crypto", "fiat"] }).notNull(),
  name: text("name").notNull(),
  precision: integer("precision").notNull(),
  network: text("network"),
  minimumAmount: money("minimum_amount").notNull(),
  minimumWithdrawalAmount: money("minimum_withdrawal_amount").notNull(),
  depositFeePpm: integer("deposit_fee_ppm").notNull(),
  withdrawalFeePpm: integer("withdrawal_fee_ppm").notNull(),
  networkFee: money("network_fee").notNull(),
  confirmations: integer("confirmations").notNull(),
  tagSupport: text("tag_support", { enum: ["none", "optional", "required"] }).notNull(),
  addressFormat: text("address_format"),
  isVisible: boolean("is_visible").notNull().default(true),
});

/** Small facts about this installation (for example the master key check value). */
export const settings = pgTable("settings", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The audit trail: one row per sensitive action of a merchant (who, when, from where, what),
 * written in the same transaction as the action where there is one, never updated.
 */
export const auditEntries = pgTable(
  "audit_entries",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    merchantId: merchantRef(),
    occurredAt: timestamp("occurred_at", { withTimezone: true }).notNull().defaultNow(),
    /** "owner@example.com", "API key pk_…" or "operator CLI". */
    actor: text("actor").notNull(),
    userId: bigint("user_id", { mode: "number" }),
    address: text("address"),
    action: text("action").notNull(),
    detail: text("detail").notNull().default(""),
  },
  (t) => [index("audit_entries_merchant_idx").on(t.merchantId, t.id)],
);
