-- Stuck payouts are replaced (issue 22): the same nonce signed again with higher fees. The row keeps
-- the current attempt in raw_transaction / tx_hash and the hashes of the attempts it replaced, since
-- any one of them may be the one mined; signed_at is when the current attempt was signed, from which
-- KASSA_EVM_REPLACE_AFTER_SECONDS is counted.
ALTER TABLE "evm_payouts" ADD COLUMN "replaced_hashes" text[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE "evm_payouts" ADD COLUMN "signed_at" timestamp with time zone DEFAULT now() NOT NULL;
--> statement-breakpoint
-- Sweeps (issue 22): a deposit address's confirmed funds moved to the hot wallet. Each sweep is a
-- transaction signed with the deposit address's own key and stored (before it is sent) under that
-- address's nonce, so a retry, a restart or a second worker sends these same bytes and never
-- signs a second sweep for the nonce. The gas a token sweep needs is sent first from the hot
-- wallet as a payout whose reference starts with `sweep-gas:` (evm_payouts).
CREATE TABLE "evm_sweeps" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"network" text NOT NULL,
	"currency" text NOT NULL,
	"deposit_address_id" bigint NOT NULL,
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
	"fee_paid" numeric(78, 0),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp with time zone
);--> statement-breakpoint
ALTER TABLE "evm_sweeps" ADD CONSTRAINT "evm_sweeps_deposit_address_id_deposit_addresses_id_fk" FOREIGN KEY ("deposit_address_id") REFERENCES "public"."deposit_addresses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "evm_sweeps_nonce_key" ON "evm_sweeps" USING btree ("network","from_address","nonce");--> statement-breakpoint
CREATE INDEX "evm_sweeps_open_idx" ON "evm_sweeps" USING btree ("network") WHERE "evm_sweeps"."status" = 'signed';
