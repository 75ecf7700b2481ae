import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { createdAt, exactJsonb, money, wholeNumber } from "./columns";
import { apiKeys, currencies, merchantRef, users } from "./core";
import { transactions } from "./transactions";

/**
 * The addresses a merchant pays out to, one row per destination (network currency, address, tag;
 * no tag is ''), so a destination has one id however often it is paid: the public API's
 * `crypto_address.id` of a withdrawal names an address, not the withdrawal.
 */
export const payoutAddresses = pgTable(
  "payout_addresses",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    merchantId: merchantRef(),
    currency: text("currency")
      .notNull()
      .references(() => currencies.code),
    address: text("address").notNull(),
    tag: text("tag").notNull().default(""),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("payout_addresses_destination_key").on(t.merchantId, t.currency, t.address, t.tag)],
);

/**
 * A bulk payout: many withdrawals sent together from one file or one API request
 * (lib/payout-batches). `reference` is the merchant's name for it, unique per merchant: a second
 * request with the same reference answers the first batch (with the same rows, `content_hash`) and
 * sends nothing. Its payouts are withdrawals with `batch_id`; over a limit they all wait `pending`
 * for one approval of the whole batch (`needs_approval`). docs/decisions/bulk-payouts.md.
 */
export const payoutBatches = pgTable(
  "payout_batches",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    merchantId: merchantRef(),
    reference: text("reference").notNull(),
    /** SHA-256 of the batch's rows as accepted (hex), to tell a repeat from a different batch. */
    contentHash: text("content_hash").notNull(),
    rowCount: integer("row_count").notNull(),
    needsApproval: boolean("needs_approval").notNull(),
    /** The dashboard user who sent it (who may then not approve it); null through the API. */
    createdByUserId: bigint("created_by_user_id", { mode: "number" }).references(() => users.id),
    apiKeyId: bigint("api_key_id", { mode: "number" }).references(() => apiKeys.id),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("payout_batches_reference_idx").on(t.merchantId, t.reference),
    check("payout_batches_rows", sql`${t.rowCount} > 0`),
  ],
);

/**
 * A withdrawal's own fields (its id, status, foreign_id live on `transactions`). All amounts are
 * fixed when the withdrawal is accepted: what leaves the balance (`total_debit`), what is converted
 * (`principal`, source currency) and what arrives at the address (`sent_amount`, target currency).
 */
export const withdrawals = pgTable(
  "withdrawals",
  {
    transactionId: bigint("transaction_id", { mode: "number" })
      .primaryKey()
      .references(() => transactions.id),
    merchantId: merchantRef(),
    kind: text("kind", { enum: ["withdrawal", "withdrawal_exchange", "withdrawal_instant"] }).notNull(),
    /** The merchant's foreign_id exactly as sent (any JSON value), echoed in responses. */
    foreignIdRaw: exactJsonb("foreign_id_raw").notNull(),
    sourceCurrency: text("source_currency")
      .notNull()
      .references(() => currencies.code),
    targetCurrency: text("target_currency")
      .notNull()
      .references(() => currencies.code),
    principal: money("principal").notNull(),
    sentAmount: money("sent_amount").notNull(),
    withdrawalFee: money("withdrawal_fee").notNull(),
    /** The network fee, in the source currency (converted at the withdrawal's rate when they differ). */
    networkFee: money("network_fee").notNull(),
    totalDebit: money("total_debit").notNull(),
    /** Target units per source unit, spread included (exact ratio); null without conversion. */
    rateNumerator: wholeNumber("rate_numerator"),
    rateDenominator: wholeNumber("rate_denominator"),
    /** The same before the spread. */
    midRateNumerator: wholeNumber("mid_rate_numerator"),
    midRateDenominator: wholeNumber("mid_rate_denominator"),
    spreadPpm: integer("spread_ppm"),
    address: text("address").notNull(),
    tag: text("tag"),
    senderType: text("sender_type").notNull(),
    senderData: jsonb("sender_data").notNull(),
    receiverType: text("receiver_type").notNull(),
    receiverData: jsonb("receiver_data"),
    chainTransactionId: bigint("chain_transaction_id", { mode: "number" }),
    txid: text("txid"),
    error: text("error"),
    createdAt: createdAt(),
    /**
     * When the withdrawal was claimed for sending (status `sending`), committed before the network
     * call. A claim without a txid is settled by reconciliation (lib/withdrawals/process-withdrawal.ts).
     */
    claimedAt: timestamp("claimed_at", { withTimezone: true }),
    broadcastAt: timestamp("broadcast_at", { withTimezone: true }),
    /** The dashboard user who asked for it; null through the API (then any user may approve it). */
    createdByUserId: bigint("created_by_user_id", { mode: "number" }).references(() => users.id),
    /** Set when it was created `pending` (over a limit): an approver must decide before then. */
    approvalExpiresAt: timestamp("approval_expires_at", { withTimezone: true }),
    /** Who approved or declined it (null when it expired), and when. */
    decidedByUserId: bigint("decided_by_user_id", { mode: "number" }).references(() => users.id),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    /** The destination as an address record: `crypto_address.id` in transactions/info and callbacks. */
    payoutAddressId: bigint("payout_address_id", { mode: "number" }).references(() => payoutAddresses.id),
    /** The invoice whose owed refund this payout sends (drizzle/0030); null for any other payout. */
    refundOf: bigint("refund_of", { mode: "number" }).references(() => transactions.id),
    /** The bulk payout it was sent in (drizzle/0046), and its row there (1 = the first); null otherwise. */
    batchId: bigint("batch_id", { mode: "number" }).references(() => payoutBatches.id),
    batchRow: integer("batch_row"),
  },
  (t) => [
    index("withdrawals_merchant_idx").on(t.merchantId),
    index("withdrawals_txid_idx").on(t.txid),
    index("withdrawals_address_idx").on(t.address),
    index("withdrawals_open_claims_idx").on(t.claimedAt).where(sql`${t.txid} is null and ${t.error} is null`),
    index("withdrawals_awaiting_approval_idx")
      .on(t.merchantId, t.approvalExpiresAt)
      .where(sql`${t.decidedAt} is null and ${t.approvalExpiresAt} is not null`),
    index("withdrawals_refund_of_idx").on(t.refundOf).where(sql`${t.refundOf} is not null`),
    uniqueIndex("withdrawals_batch_row_idx").on(t.batchId, t.batchRow).where(sql`${t.batchId} is not null`),
  ],
);

/**
 * A merchant's withdrawal limits in one currency (the currency of the balance a withdrawal leaves),
 * compared with the withdrawal's `amount` (fees excluded). A withdrawal over either is created
 * `pending` and waits for an approver (DESIGN.md section 6).
 */
export const withdrawalLimits = pgTable(
  "withdrawal_limits",
  {
    merchantId: merchantRef(),
    currency: text("currency")
      .notNull()
      .references(() => currencies.code),
    perWithdrawal: money("per_withdrawal").notNull(),
    /** Over the UTC day of its creation, with the withdrawals that went out without approval. */
    perDay: money("per_day"),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.merchantId, t.currency] }),
    check(
      "withdrawal_limits_positive",
      sql`${t.perWithdrawal} >= 0 and (${t.perDay} is null or ${t.perDay} >= 0)`,
    ),
  ],
);
