import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  check,
  index,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { createdAt, money } from "./columns";
import { currencies, merchantRef, users } from "./core";
import { transactions } from "./transactions";

/**
 * A refund the merchant offered and the customer claims on the hosted page (/refund/<token>): the
 * terms fixed when it was issued, what it takes off what the invoice owes back (`owed_amount`, in the
 * coin paid), and once claimed, where it goes and the payout that sends it. Only the token's hash and
 * the nonce it is derived from under the master key are kept. `offered` → `claimed` (then the payout's own states) / `cancelled` / `expired`.
 */
export const refundClaims = pgTable(
  "refund_claims",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    merchantId: merchantRef(),
    invoiceId: bigint("invoice_id", { mode: "number" })
      .notNull()
      .references(() => transactions.id),
    tokenHash: text("token_hash").notNull(),
    /** What the link's token is derived from under the master key; useless without it. */
    tokenNonce: text("token_nonce").notNull(),
    status: text("status", { enum: ["offered", "claimed", "cancelled", "expired"] }).notNull(),
    /** The coin the customer paid, and how much of what is owed in it this refund settles. */
    payCurrency: text("pay_currency")
      .notNull()
      .references(() => currencies.code),
    owedAmount: money("owed_amount").notNull(),
    amountKind: text("amount_kind", { enum: ["full", "excess", "custom"] }).notNull(),
    rateBasis: text("rate_basis", { enum: ["payment", "now"] }).notNull(),
    feePaidBy: text("fee_paid_by", { enum: ["merchant", "customer"] }).notNull(),
    /** The coins the customer may choose, the one paid first. */
    currencies: jsonb("currencies").$type<string[]>().notNull(),
    /** `owed_amount` in the invoice currency at the payment's rate: a refund in another coin valued then. */
    paymentValue: money("payment_value").notNull(),
    claimedCurrency: text("claimed_currency").references(() => currencies.code),
    address: text("address"),
    tag: text("tag"),
    withdrawalId: bigint("withdrawal_id", { mode: "number" }).references(() => transactions.id),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdByUserId: bigint("created_by_user_id", { mode: "number" }).references(() => users.id),
    /** Who issued it, as the audit trail names them. */
    createdBy: text("created_by").notNull(),
    createdAt: createdAt(),
    claimedAt: timestamp("claimed_at", { withTimezone: true }),
    endedAt: timestamp("ended_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("refund_claims_token_hash_key").on(t.tokenHash),
    uniqueIndex("refund_claims_withdrawal_key").on(t.withdrawalId),
    index("refund_claims_invoice_idx").on(t.invoiceId),
    check(
      "refund_claims_claimed_has_payout",
      sql`(${t.status} = 'claimed') = (${t.withdrawalId} is not null)`,
    ),
    check("refund_claims_owed_positive", sql`${t.owedAmount} > 0`),
  ],
);
