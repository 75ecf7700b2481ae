import { sql } from "drizzle-orm";
import { bigint, index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { createdAt, exactJsonb, money, wholeNumber } from "./columns";
import { currencies, merchantRef } from "./core";
import { transactions } from "./transactions";

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
  },
  (t) => [
    index("withdrawals_merchant_idx").on(t.merchantId),
    index("withdrawals_txid_idx").on(t.txid),
    index("withdrawals_address_idx").on(t.address),
    index("withdrawals_open_claims_idx").on(t.claimedAt).where(sql`${t.txid} is null and ${t.error} is null`),
  ],
);
