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
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { RESOLUTION_REASONS } from "@/lib/schemas/invoice-resolution";
import { createdAt, money, wholeNumber } from "./columns";
import { currencies, merchantRef } from "./core";
import { paymentLinks } from "./payment-links";
import { transactions } from "./transactions";

/**
 * An invoice's own fields; its id, status, foreign_id, currency and amount live on its row in
 * `transactions` (one id sequence for everything a merchant can look up). Triggers that Drizzle's
 * schema cannot declare (drizzle/0031_checkout_notify.sql) announce every change to an invoice, its
 * transaction's status, its payments and the sandbox chain tips on the channel `kassa_checkout`.
 */
export const invoices = pgTable(
  "invoices",
  {
    transactionId: bigint("transaction_id", { mode: "number" })
      .primaryKey()
      .references(() => transactions.id),
    merchantId: merchantRef(),
    /** The unguessable token in the hosted checkout URL (/pay/<token>); never the numeric id. */
    token: text("token").notNull(),
    title: text("title").notNull(),
    description: text("description"),
    type: text("type", { enum: ["fill_or_kill", "good_until_expired"] }).notNull(),
    hasTimer: boolean("has_timer").notNull(),
    /** Null on a dashboard invoice made without them (drizzle/0044), as are the next two. */
    urlSuccess: text("url_success"),
    urlFailed: text("url_failed"),
    emailUser: text("email_user"),
    /** Overrides the merchant's callback URL for this invoice's events. */
    callbackUrl: text("callback_url"),
    /** Null until given: a dashboard invoice may leave them to the customer, asked on the checkout. */
    senderType: text("sender_type", { enum: ["natural", "legal"] }),
    senderData: jsonb("sender_data"),
    /** Fixed when the customer (or the merchant, via sender_currency) chooses how to pay. */
    senderCurrency: text("sender_currency").references(() => currencies.code),
    senderAmount: money("sender_amount"),
    /**
     * Invoice-currency units per sender-currency unit, spread included, locked at fixing: an exact
     * ratio (lib/rates/rate.ts). It holds for the invoiced amount until the lock expires.
     */
    rateNumerator: wholeNumber("rate_numerator"),
    rateDenominator: wholeNumber("rate_denominator"),
    spreadPpm: integer("spread_ppm"),
    depositAddressId: bigint("deposit_address_id", { mode: "number" }),
    fixedAt: timestamp("fixed_at", { withTimezone: true }),
    /** The deadline: choose a currency by it (created), or pay by it (pending). Null without a timer. */
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    /** Sums of payments in the sender currency: seen on chain, and confirmed. */
    paidAmount: money("paid_amount").notNull().default(sql`0`),
    confirmedAmount: money("confirmed_amount").notNull().default(sql`0`),
    /** What the merchant's balance received for this invoice, net of fees, in the invoice currency. */
    creditedAmount: money("credited_amount").notNull().default(sql`0`),
    statusReason: text("status_reason"),
    /** The payment link a customer started this invoice from (lib/payment-links); null otherwise. */
    paymentLinkId: bigint("payment_link_id", { mode: "number" }).references(() => paymentLinks.id),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("invoices_token_key").on(t.token),
    index("invoices_merchant_idx").on(t.merchantId),
    index("invoices_payment_link_idx").on(t.paymentLinkId).where(sql`${t.paymentLinkId} is not null`),
  ],
);

/**
 * An invoice whose exception (money owed back, a late or rejected payment) the merchant closed
 * without a refund: one row per invoice, never updated, so resolving is one-way.
 */
export const invoiceResolutions = pgTable(
  "invoice_resolutions",
  {
    transactionId: bigint("transaction_id", { mode: "number" })
      .primaryKey()
      .references(() => transactions.id),
    merchantId: merchantRef(),
    reason: text("reason", { enum: RESOLUTION_REASONS }).notNull(),
    note: text("note").notNull().default(""),
    /** Who resolved it, as the audit trail names actors (an e-mail address, an API key, the CLI). */
    resolvedBy: text("resolved_by").notNull(),
    resolvedAt: timestamp("resolved_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check(
      "invoice_resolutions_reason_check",
      sql`${t.reason} in ('paid_outside', 'customer_declined', 'too_small', 'other')`,
    ),
  ],
);

/** Every status change of every transaction, in order: the timeline a merchant and support read. */
export const transactionEvents = pgTable(
  "transaction_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    transactionId: bigint("transaction_id", { mode: "number" }).notNull(),
    merchantId: merchantRef(),
    fromStatus: text("from_status"),
    toStatus: text("to_status").notNull(),
    reason: text("reason"),
    createdAt: createdAt(),
  },
  (t) => [index("transaction_events_transaction_idx").on(t.transactionId, t.id)],
);

/** E-mails Kassa sends (refund instructions, receipts): sent over SMTP when configured, kept either way. */
export const emails = pgTable(
  "emails",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    merchantId: bigint("merchant_id", { mode: "number" }),
    transactionId: bigint("transaction_id", { mode: "number" }),
    kind: text("kind").notNull(),
    recipient: text("recipient").notNull(),
    subject: text("subject").notNull(),
    /** The message as shown (outbox, audit): a live link in it is replaced by a redaction mark. */
    body: text("body").notNull(),
    /**
     * The message as it is sent, when it carries a live link: sealed under the master key
     * (lib/mail/queue-email.ts), and dropped once sent or kept without SMTP, so no usable link stays at rest
     * in clear (a sandbox without SMTP keeps it sealed for the dev mailbox, lib/mail/read-dev-mailbox.ts).
     */
    bodySealed: text("body_sealed"),
    status: text("status", { enum: ["queued", "sent", "stored", "failed"] })
      .notNull()
      .default("queued"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    createdAt: createdAt(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
  },
  (t) => [index("emails_merchant_idx").on(t.merchantId, t.id)],
);
