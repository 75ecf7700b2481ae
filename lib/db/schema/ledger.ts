import { sql } from "drizzle-orm";
import { bigint, bigserial, check, index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, money } from "./columns";
import { currencies, merchants } from "./core";

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
