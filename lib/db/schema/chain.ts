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
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { createdAt, money, wholeNumber } from "./columns";
import { apiKeys, currencies, merchantRef } from "./core";

/** Exchange rates: the price of one unit of each currency in USD (the rates provider's table). */
export const rates = pgTable("rates", {
  currency: text("currency")
    .primaryKey()
    .references(() => currencies.code),
  usdPrice: money("usd_price").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A merchant's own sandbox prices, on top of the installation's `rates`: what the sandbox rate editor
 * sets, so one merchant's edit never moves another's conversions (lib/rates/rates.ts).
 */
export const merchantRates = pgTable(
  "merchant_rates",
  {
    merchantId: merchantRef(),
    currency: text("currency")
      .notNull()
      .references(() => currencies.code),
    usdPrice: money("usd_price").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: "merchant_rates_pkey", columns: [t.merchantId, t.currency] })],
);

/** The sandbox chain's block height per currency (DESIGN.md section 5). */
export const chainTips = pgTable("chain_tips", {
  currency: text("currency")
    .primaryKey()
    .references(() => currencies.code),
  height: integer("height").notNull().default(0),
  minedAt: timestamp("mined_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Payments on a chain, one row per transfer: (currency, txid, log_index), log_index -1 for a native
 * transfer. Sandbox rows are in the mempool while block_height is null. Real-chain rows (`network`
 * set) keep the exact base-unit amount (wei, token units), the dust the 10^-8 rounding left, and the
 * block they were seen in; `removed_at` marks one whose block a reorganisation removed.
 */
export const chainTransactions = pgTable(
  "chain_transactions",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    currency: text("currency")
      .notNull()
      .references(() => currencies.code),
    txid: text("txid").notNull(),
    address: text("address").notNull(),
    tag: text("tag").notNull().default(""),
    amount: money("amount").notNull(),
    direction: text("direction", { enum: ["in", "out"] }).notNull(),
    /** The screening provider's risk score, 0 to 100 as a decimal string (lib/compliance), set when the payment is confirmed. */
    riskScore: text("risk_score"),
    /** The sending address when the chain names one (EVM `from`; the sandbox payment's `sender_address`). */
    senderAddress: text("sender_address"),
    blockHeight: integer("block_height"),
    network: text("network"),
    logIndex: integer("log_index").notNull().default(-1),
    baseAmount: wholeNumber("base_amount"),
    dust: wholeNumber("dust"),
    blockHash: text("block_hash"),
    removedAt: timestamp("removed_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("chain_transactions_txid_key").on(t.currency, t.txid, t.logIndex),
    index("chain_transactions_block_idx").on(t.network, t.blockHeight).where(sql`${t.network} is not null`),
    index("chain_transactions_mempool_idx").on(t.currency).where(sql`${t.blockHeight} is null`),
    index("chain_transactions_txid_idx").on(t.txid),
    index("chain_transactions_address_idx").on(t.address),
  ],
);

/**
 * Addresses handed out for deposits: one per invoice (never reused), or one permanent address per
 * customer (`foreign_id`) and currency. XRP shares one address and tells deposits apart by tag.
 */
export const depositAddresses = pgTable(
  "deposit_addresses",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    merchantId: merchantRef(),
    currency: text("currency")
      .notNull()
      .references(() => currencies.code),
    network: text("network").notNull(),
    address: text("address").notNull(),
    tag: text("tag").notNull().default(""),
    derivationPath: text("derivation_path").notNull(),
    kind: text("kind", { enum: ["invoice", "permanent"] }).notNull(),
    invoiceId: bigint("invoice_id", { mode: "number" }),
    foreignId: text("foreign_id"),
    convertTo: text("convert_to").references(() => currencies.code),
    /** The customer a permanent address was taken for, when addresses/take named one. */
    endUserReference: text("end_user_reference"),
    /** The API key that took a permanent address: its deposits' callbacks are signed by that key. */
    apiKeyId: bigint("api_key_id", { mode: "number" }).references(() => apiKeys.id),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("deposit_addresses_address_key").on(t.currency, t.address, t.tag),
    index("deposit_addresses_lookup_idx").on(t.address),
    uniqueIndex("deposit_addresses_permanent_key")
      .on(t.merchantId, t.currency, t.foreignId)
      .where(sql`${t.kind} = 'permanent'`),
  ],
);

/** Next unused derivation index per account path (and the next XRP destination tag). */
export const addressCounters = pgTable("address_counters", {
  key: text("key").primaryKey(),
  nextIndex: bigint("next_index", { mode: "number" }).notNull(),
});

/**
 * A payment seen on a chain to one of our deposit addresses. Credited exactly once: the credit and
 * the change of `status` to `credited` commit together, guarded by a conditional update.
 */
export const deposits = pgTable(
  "deposits",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    merchantId: merchantRef(),
    depositAddressId: bigint("deposit_address_id", { mode: "number" })
      .notNull()
      .references(() => depositAddresses.id),
    /** The merchant-visible transaction this payment belongs to (the invoice, or a `deposit`). */
    transactionId: bigint("transaction_id", { mode: "number" }).notNull(),
    chainTransactionId: bigint("chain_transaction_id", { mode: "number" })
      .notNull()
      .references(() => chainTransactions.id),
    currency: text("currency").notNull(),
    amount: money("amount").notNull(),
    confirmations: integer("confirmations").notNull().default(0),
    /** `unwound`: a reorganisation removed its block before it was credited. */
    /** `held`: waiting for a compliance review; `rejected`: a reviewer refused it (booked to platform:compliance_held). */
    status: text("status", { enum: ["seen", "credited", "unwound", "held", "rejected"] })
      .notNull()
      .default("seen"),
    /** Arrived after its invoice had expired or been cancelled: credited, and flagged. */
    isLate: boolean("is_late").notNull().default(false),
    /**
     * The rates that apply, fixed when the payment was seen (DESIGN.md section 3): `locked_amount`
     * of it (pay currency) at the invoice's locked rate while the lock lived, the rest at the rate of
     * that moment (`rate_*`, credit units per pay unit). A rest without a rate (none could be had when
     * it was seen, or a row migrated by 0008) converts at the rate of its crediting, which is then recorded.
     */
    lockedAmount: money("locked_amount").notNull().default(sql`0`),
    lockedRateNumerator: wholeNumber("locked_rate_numerator"),
    lockedRateDenominator: wholeNumber("locked_rate_denominator"),
    rateNumerator: wholeNumber("rate_numerator"),
    rateDenominator: wholeNumber("rate_denominator"),
    creditedAt: timestamp("credited_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("deposits_chain_transaction_key")
      .on(t.chainTransactionId)
      .where(sql`${t.status} <> 'unwound'`),
    index("deposits_transaction_idx").on(t.transactionId),
    index("deposits_pending_idx").on(t.currency).where(sql`${t.status} = 'seen'`),
  ],
);

/** A real chain watcher's durable position: the last block it processed on a network. */
export const chainCursors = pgTable("chain_cursors", {
  network: text("network").primaryKey(),
  blockNumber: bigint("block_number", { mode: "bigint" }).notNull(),
  blockHash: text("block_hash").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  /** How far in time the network has been read (the cursor block's time, or a caught-up pass's); invoice expiry waits for it. */
  seenUntil: timestamp("seen_until", { withTimezone: true }),
});

/** The recent blocks a watcher processed, to find the fork point of a reorganisation. */
export const chainBlocks = pgTable(
  "chain_blocks",
  {
    network: text("network").notNull(),
    blockNumber: bigint("block_number", { mode: "bigint" }).notNull(),
    blockHash: text("block_hash").notNull(),
    parentHash: text("parent_hash").notNull(),
  },
  (t) => [primaryKey({ name: "chain_blocks_pkey", columns: [t.network, t.blockNumber] })],
);

/**
 * Something on a chain an operator must look at (a credited or rejected payment's block removed, a transfer in a
 * currency its address was not handed out for); never changes the ledger.
 */
export const chainIncidents = pgTable(
  "chain_incidents",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    network: text("network").notNull(),
    kind: text("kind", {
      enum: ["credited_payment_removed", "held_payment_removed", "unmatched_currency", "payout_inputs_spent"],
    }).notNull(),
    chainTransactionId: bigint("chain_transaction_id", { mode: "number" }).references(
      () => chainTransactions.id,
    ),
    depositId: bigint("deposit_id", { mode: "number" }).references(() => deposits.id),
    /** A Bitcoin or Litecoin payout that can never be mined (payout_inputs_spent). */
    utxoPayoutId: bigint("utxo_payout_id", { mode: "number" }).references((): AnyPgColumn => utxoPayouts.id),
    blockNumber: bigint("block_number", { mode: "bigint" }),
    blockHash: text("block_hash"),
    message: text("message").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("chain_incidents_deposit_key").on(t.kind, t.depositId),
    uniqueIndex("chain_incidents_transaction_key")
      .on(t.kind, t.chainTransactionId)
      .where(sql`${t.depositId} is null`),
    uniqueIndex("chain_incidents_utxo_payout_key")
      .on(t.kind, t.utxoPayoutId)
      .where(sql`${t.utxoPayoutId} is not null`),
  ],
);

/**
 * Kassa's own coins on a UTXO chain (DESIGN.md section 5): one row per output paid to one of its
 * addresses, written in the transaction that records the payment, with the derivation path that
 * signs it. `pending` until its deposit is credited, then `spendable` (in the same transaction as the
 * credit): payouts spend from here; `removed` when a reorganisation or a double spend took it away.
 */
export const utxoCoins = pgTable(
  "utxo_coins",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    network: text("network").notNull(),
    currency: text("currency")
      .notNull()
      .references(() => currencies.code),
    txid: text("txid").notNull(),
    vout: integer("vout").notNull(),
    baseAmount: wholeNumber("base_amount").notNull(),
    address: text("address").notNull(),
    derivationPath: text("derivation_path").notNull(),
    /** The payment that brought it; null for change, which a payout of Kassa's made (change_of_payout_id). */
    chainTransactionId: bigint("chain_transaction_id", { mode: "number" }).references(
      () => chainTransactions.id,
    ),
    /** The stored payout that spends it (`spent` from the moment it is signed). */
    spentByPayoutId: bigint("spent_by_payout_id", { mode: "number" }).references(() => utxoPayouts.id),
    changeOfPayoutId: bigint("change_of_payout_id", { mode: "number" }).references(() => utxoPayouts.id),
    status: text("status", { enum: ["pending", "spendable", "spent", "removed"] })
      .notNull()
      .default("pending"),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("utxo_coins_outpoint_key").on(t.network, t.txid, t.vout),
    uniqueIndex("utxo_coins_chain_transaction_key").on(t.chainTransactionId),
    index("utxo_coins_spendable_idx").on(t.network).where(sql`${t.status} = 'spendable'`),
    check("utxo_coins_base_amount_check", sql`${t.baseAmount} > 0`),
    check("utxo_coins_status_check", sql`${t.status} in ('pending', 'spendable', 'spent', 'removed')`),
  ],
);

/** One signed version of a UTXO payout, as `utxo_payouts.replaced` keeps it (amounts as decimal text). */
export type UtxoPayoutVersion = {
  txid: string;
  rawTransaction: string;
  fee: string;
  vsize: number;
  feeRate: string;
  /** Its change output, or null when it had none. */
  change: { vout: number; baseAmount: string } | null;
};

/**
 * A payout transaction on a UTXO chain (drizzle/0040), signed and stored before it is sent: every
 * retry sends these bytes. `fee` (inputs minus outputs, base units) and `vsize` are the signed
 * transaction's; `signed` until mined with the required confirmations, then `confirmed`.
 */
export const utxoPayouts = pgTable(
  "utxo_payouts",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    network: text("network").notNull(),
    currency: text("currency")
      .notNull()
      .references(() => currencies.code),
    txid: text("txid").notNull(),
    rawTransaction: text("raw_transaction").notNull(),
    fee: wholeNumber("fee").notNull(),
    vsize: integer("vsize").notNull(),
    /** Base units per virtual byte, as asked of the coin selection. */
    feeRate: wholeNumber("fee_rate").notNull(),
    status: text("status", { enum: ["signed", "confirmed", "incident"] })
      .notNull()
      .default("signed"),
    blockHeight: bigint("block_height", { mode: "number" }),
    blockHash: text("block_hash"),
    /** Earlier versions this one replaced by fee (oldest first): any of them may be the one mined. */
    replaced: jsonb("replaced").$type<UtxoPayoutVersion[]>().notNull().default(sql`'[]'::jsonb`),
    createdAt: createdAt(),
    /** When the current version was sent first: a replacement is due this long after it. */
    sentAt: timestamp("sent_at", { withTimezone: true }).notNull().defaultNow(),
    settledAt: timestamp("settled_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("utxo_payouts_txid_key").on(t.network, t.txid),
    index("utxo_payouts_open_idx").on(t.network).where(sql`${t.status} = 'signed'`),
    check("utxo_payouts_fee_check", sql`${t.fee} > 0`),
    check("utxo_payouts_status_check", sql`${t.status} in ('signed', 'confirmed', 'incident')`),
  ],
);

/** What a UTXO payout pays: one output per withdrawal (its reference), with the exact amount. */
export const utxoPayoutOutputs = pgTable(
  "utxo_payout_outputs",
  {
    reference: text("reference").primaryKey(),
    payoutId: bigint("payout_id", { mode: "number" })
      .notNull()
      .references(() => utxoPayouts.id),
    vout: integer("vout").notNull(),
    address: text("address").notNull(),
    baseAmount: wholeNumber("base_amount").notNull(),
  },
  (t) => [
    index("utxo_payout_outputs_payout_idx").on(t.payoutId),
    check("utxo_payout_outputs_base_amount_check", sql`${t.baseAmount} > 0`),
  ],
);

/** A hot wallet per EVM network and its next nonce, allocated in the database (drizzle/0013). */
export const evmHotWallets = pgTable(
  "evm_hot_wallets",
  {
    network: text("network").notNull(),
    address: text("address").notNull(),
    nextNonce: bigint("next_nonce", { mode: "bigint" }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ name: "evm_hot_wallets_pkey", columns: [t.network, t.address] })],
);

/**
 * The columns a stored, signed EVM transaction of ours has, payout or sweep: what it moves and the
 * exact signed bytes (so a retry resends them), the current attempt and the ones it replaced (same
 * nonce, higher fees: any may be mined), and how it settled.
 */
const signedEvmTransactionColumns = () => ({
  network: text("network").notNull(),
  currency: text("currency").notNull(),
  fromAddress: text("from_address").notNull(),
  toAddress: text("to_address").notNull(),
  baseAmount: wholeNumber("base_amount").notNull(),
  nonce: bigint("nonce", { mode: "bigint" }).notNull(),
  maxFeePerGas: wholeNumber("max_fee_per_gas").notNull(),
  gasLimit: wholeNumber("gas_limit").notNull(),
  rawTransaction: text("raw_transaction").notNull(),
  /** The current attempt's hash; once mined, the hash of whichever attempt was mined. */
  txHash: text("tx_hash").notNull(),
  /** The hashes of earlier attempts this one replaced (drizzle/0016 for payouts, 0023 for sweeps). */
  replacedHashes: text("replaced_hashes").array().notNull().default(sql`'{}'`),
  /** When the current attempt was signed; a replacement is due KASSA_EVM_REPLACE_AFTER_SECONDS later. */
  signedAt: timestamp("signed_at", { withTimezone: true }).notNull().defaultNow(),
  status: text("status", { enum: ["signed", "confirmed", "reverted"] })
    .notNull()
    .default("signed"),
  blockNumber: bigint("block_number", { mode: "bigint" }),
  /** The fee really paid, in wei (gas used times the effective gas price), once mined. */
  feePaid: wholeNumber("fee_paid"),
  createdAt: createdAt(),
  settledAt: timestamp("settled_at", { withTimezone: true }),
});

/**
 * A payout's signed transaction, stored (keyed by the payout reference) before it is sent, so a
 * retry sends the same bytes again. `signed` until its receipt has the required confirmations, then
 * `confirmed` or `reverted`.
 */
export const evmPayouts = pgTable(
  "evm_payouts",
  {
    reference: text("reference").primaryKey(),
    ...signedEvmTransactionColumns(),
    gasUsed: wholeNumber("gas_used"),
  },
  (t) => [
    uniqueIndex("evm_payouts_nonce_key").on(t.network, t.fromAddress, t.nonce),
    index("evm_payouts_open_idx").on(t.network).where(sql`${t.status} = 'signed'`),
  ],
);

/**
 * A sweep of a deposit address's confirmed funds to the hot wallet (drizzle/0016): signed with the
 * deposit address's key and stored under its nonce before it is sent; `signed` until mined with the
 * required confirmations, then `confirmed` (or `reverted`), with the fee it really paid in wei.
 */
export const evmSweeps = pgTable(
  "evm_sweeps",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    ...signedEvmTransactionColumns(),
    depositAddressId: bigint("deposit_address_id", { mode: "number" })
      .notNull()
      .references(() => depositAddresses.id),
  },
  (t) => [
    uniqueIndex("evm_sweeps_nonce_key").on(t.network, t.fromAddress, t.nonce),
    index("evm_sweeps_open_idx").on(t.network).where(sql`${t.status} = 'signed'`),
  ],
);
