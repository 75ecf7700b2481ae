-- Real chains (issue 21). A chain payment is one transfer inside a transaction: (currency, txid,
-- log_index), log_index -1 for a native transfer (and for every sandbox row), so one transaction
-- paying two Kassa addresses is two payments. Real-chain rows keep the exact base-unit amount
-- (wei, token units) next to the 10^-8 ledger amount, and the dust the rounding left behind.
ALTER TABLE "chain_transactions" ADD COLUMN "network" text;--> statement-breakpoint
ALTER TABLE "chain_transactions" ADD COLUMN "log_index" integer DEFAULT -1 NOT NULL;--> statement-breakpoint
ALTER TABLE "chain_transactions" ADD COLUMN "base_amount" numeric(78, 0);--> statement-breakpoint
ALTER TABLE "chain_transactions" ADD COLUMN "dust" numeric(78, 0);--> statement-breakpoint
ALTER TABLE "chain_transactions" ADD COLUMN "block_hash" text;--> statement-breakpoint
ALTER TABLE "chain_transactions" ADD COLUMN "removed_at" timestamp with time zone;--> statement-breakpoint
DROP INDEX "chain_transactions_txid_key";--> statement-breakpoint
CREATE UNIQUE INDEX "chain_transactions_txid_key" ON "chain_transactions" USING btree ("currency","txid","log_index");--> statement-breakpoint
CREATE INDEX "chain_transactions_block_idx" ON "chain_transactions" USING btree ("network","block_height") WHERE "chain_transactions"."network" is not null;--> statement-breakpoint
-- A deposit whose block a reorganisation removed before it was credited is unwound, not deleted;
-- the same transfer mined again later is a new deposit.
DROP INDEX "deposits_chain_transaction_key";--> statement-breakpoint
CREATE UNIQUE INDEX "deposits_chain_transaction_key" ON "deposits" USING btree ("chain_transaction_id") WHERE "deposits"."status" <> 'unwound';--> statement-breakpoint
-- The watcher's durable position per network: the last block it processed, and the hashes of the
-- recent blocks it processed, to find the fork point when a reorganisation replaces them.
CREATE TABLE "chain_cursors" (
	"network" text PRIMARY KEY NOT NULL,
	"block_number" bigint NOT NULL,
	"block_hash" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE TABLE "chain_blocks" (
	"network" text NOT NULL,
	"block_number" bigint NOT NULL,
	"block_hash" text NOT NULL,
	"parent_hash" text NOT NULL,
	CONSTRAINT "chain_blocks_pkey" PRIMARY KEY("network","block_number")
);--> statement-breakpoint
-- What an operator must look at: a credited payment whose block a reorganisation removed. The
-- ledger is not changed by it.
CREATE TABLE "chain_incidents" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"network" text NOT NULL,
	"kind" text NOT NULL,
	"chain_transaction_id" bigint REFERENCES "chain_transactions"("id"),
	"deposit_id" bigint REFERENCES "deposits"("id"),
	"block_number" bigint,
	"block_hash" text,
	"message" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE UNIQUE INDEX "chain_incidents_deposit_key" ON "chain_incidents" USING btree ("kind","deposit_id");
