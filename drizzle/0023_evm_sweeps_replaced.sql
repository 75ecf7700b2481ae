-- Stuck sweeps are replaced like payouts (issue 22): the same nonce signed again with higher fees (an
-- ETH sweep's amount lowered by the extra gas). The row keeps the current attempt in raw_transaction /
-- tx_hash and the hashes of the attempts it replaced, any of which may be the one mined; signed_at is
-- when the current attempt was signed, from which KASSA_EVM_REPLACE_AFTER_SECONDS is counted.
ALTER TABLE "evm_sweeps" ADD COLUMN "replaced_hashes" text[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE "evm_sweeps" ADD COLUMN "signed_at" timestamp with time zone DEFAULT now() NOT NULL;
