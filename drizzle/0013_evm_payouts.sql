-- Real EVM payouts (issue 22). Each hot wallet's next nonce lives in the database: a payout takes
-- it with `update ... set next_nonce = next_nonce + 1 returning` in the transaction that stores its
-- signed transaction, so a nonce is never handed out twice and never skipped (a rolled back
-- transaction gives its nonce back with it).
CREATE TABLE "evm_hot_wallets" (
	"network" text NOT NULL,
	"address" text NOT NULL,
	"next_nonce" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "evm_hot_wallets_pkey" PRIMARY KEY("network","address")
);--> statement-breakpoint
-- One signed transaction per payout reference (`withdrawal:<id>`), stored before it is sent: a retry
-- or a restart sends these same bytes again, so a payout is never paid twice. Once mined, the gas it
-- used and the fee it really paid (wei: gas used times the effective gas price) are kept.
CREATE TABLE "evm_payouts" (
	"reference" text PRIMARY KEY NOT NULL,
	"network" text NOT NULL,
	"currency" text NOT NULL,
	"from_address" text NOT NULL,
	"to_address" text NOT NULL,
	"base_amount" numeric(78, 0) NOT NULL,
	"nonce" bigint NOT NULL,
	"max_fee_per_gas" numeric(78, 0) NOT NULL,
	"gas_limit" numeric(78, 0) NOT NULL,
	"raw_transaction" text NOT NULL,
	"tx_hash" text NOT NULL,
	"status" text DEFAULT 'signed' NOT NULL,
	"block_number" bigint,
	"gas_used" numeric(78, 0),
	"fee_paid" numeric(78, 0),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp with time zone
);--> statement-breakpoint
CREATE UNIQUE INDEX "evm_payouts_nonce_key" ON "evm_payouts" USING btree ("network","from_address","nonce");--> statement-breakpoint
CREATE INDEX "evm_payouts_open_idx" ON "evm_payouts" USING btree ("network") WHERE "evm_payouts"."status" = 'signed';
