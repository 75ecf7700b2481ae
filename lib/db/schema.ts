import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { formatAmount, parseDecimal } from "@/lib/money";

/** NUMERIC(38,8) in the database, bigint minor units (10^-8) in the application. Never a float. */
export const money = customType<{ data: bigint; driverData: string }>({
  dataType() {
    return "numeric(38, 8)";
  },
  toDriver(value) {
    return formatAmount(value);
  },
  fromDriver(value) {
    return parseDecimal(String(value));
  },
});

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
const merchantRef = () =>
  bigint("merchant_id", { mode: "number" })
    .notNull()
    .references(() => merchants.id);

export const merchants = pgTable("merchants", {
  id: bigserial("id", { mode: "number" }).primaryKey(),
  name: text("name").notNull(),
  email: text("email").notNull(),
  callbackUrl: text("callback_url"),
  createdAt: createdAt(),
});

export const users = pgTable(
  "users",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    merchantId: merchantRef(),
    email: text("email").notNull(),
    passwordHash: text("password_hash").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("users_email_key").on(sql`lower(${t.email})`),
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
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
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

/**
 * A merchant's customer as identified by `end_user_reference`. The first request that names a
 * reference records the identity; later requests must not contradict it (spec 2.1).
 */
export const customers = pgTable(
  "customers",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    merchantId: merchantRef(),
    endUserReference: text("end_user_reference").notNull(),
    type: text("type", { enum: ["natural", "legal"] }).notNull(),
    firstName: text("first_name"),
    lastName: text("last_name"),
    dateOfBirth: text("date_of_birth"),
    legalName: text("legal_name"),
    countryOfRegistration: text("country_of_registration"),
    email: text("email"),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("customers_merchant_reference_key").on(t.merchantId, t.endUserReference)],
);

/**
 * Ledger accounts. Merchant balances may never go below zero (the CHECK is the backstop behind the
 * conditional UPDATE in post-journal.ts); platform accounts (fees, the chain, exchange positions,
 * the sandbox faucet) carry the other side, so all entries of a currency sum to zero.
 */
export const ledgerAccounts = pgTable(
  "ledger_accounts",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    merchantId: bigint("merchant_id", { mode: "number" }).references(() => merchants.id),
    kind: text("kind").notNull(),
    currency: text("currency")
      .notNull()
      .references(() => currencies.code),
    balance: money("balance").notNull().default(sql`0`),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("ledger_accounts_merchant_key")
      .on(t.merchantId, t.kind, t.currency)
      .where(sql`${t.merchantId} is not null`),
    uniqueIndex("ledger_accounts_platform_key").on(t.kind, t.currency).where(sql`${t.merchantId} is null`),
    check("ledger_accounts_merchant_not_negative", sql`${t.merchantId} is null or ${t.balance} >= 0`),
    check(
      "ledger_accounts_owner_matches_kind",
      sql`(${t.merchantId} is null) = (${t.kind} like 'platform:%')`,
    ),
  ],
);

/** One balanced set of entries: the unit of every movement of value. */
export const journals = pgTable(
  "journals",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    merchantId: bigint("merchant_id", { mode: "number" }).references(() => merchants.id),
    transactionId: bigint("transaction_id", { mode: "number" }),
    kind: text("kind").notNull(),
    memo: text("memo"),
    createdAt: createdAt(),
  },
  (t) => [
    index("journals_merchant_idx").on(t.merchantId, t.id),
    index("journals_transaction_idx").on(t.transactionId),
  ],
);

/** Append-only: a trigger in the migrations refuses UPDATE and DELETE. */
export const ledgerEntries = pgTable(
  "ledger_entries",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    journalId: bigint("journal_id", { mode: "number" })
      .notNull()
      .references(() => journals.id),
    accountId: bigint("account_id", { mode: "number" })
      .notNull()
      .references(() => ledgerAccounts.id),
    currency: text("currency").notNull(),
    amount: money("amount").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index("ledger_entries_account_idx").on(t.accountId, t.id),
    index("ledger_entries_journal_idx").on(t.journalId),
    check("ledger_entries_amount_not_zero", sql`${t.amount} <> 0`),
  ],
);

/**
 * Every merchant-visible operation (invoice, deposit, withdrawal, withdrawal_exchange,
 * withdrawal_instant, exchange) draws its id from this one sequence, and `foreign_id` is unique
 * per merchant across all kinds (DESIGN.md section 6).
 */
export const transactions = pgTable(
  "transactions",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    merchantId: merchantRef(),
    type: text("type").notNull(),
    status: text("status").notNull(),
    foreignId: text("foreign_id"),
    endUserReference: text("end_user_reference"),
    currency: text("currency").references(() => currencies.code),
    amount: money("amount"),
    details: jsonb("details").notNull().default({}),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("transactions_merchant_foreign_id_key")
      .on(t.merchantId, t.foreignId)
      .where(sql`${t.foreignId} is not null`),
    index("transactions_merchant_created_idx").on(t.merchantId, t.id),
  ],
);

/** Small facts about this installation (for example the master key check value). */
export const settings = pgTable("settings", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
