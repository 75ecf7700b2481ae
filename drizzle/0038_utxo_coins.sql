-- Kassa's own coins on the UTXO chains (Bitcoin, Litecoin): each output paid to one of its addresses,
-- written with the payment; `spendable` once its deposit is credited, which payouts spend from.
CREATE TABLE "utxo_coins" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"network" text NOT NULL,
	"currency" text NOT NULL,
	"txid" text NOT NULL,
	"vout" integer NOT NULL,
	"base_amount" numeric(78, 0) NOT NULL,
	"address" text NOT NULL,
	"derivation_path" text NOT NULL,
	"chain_transaction_id" bigint NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "utxo_coins_base_amount_check" CHECK ("base_amount" > 0),
	CONSTRAINT "utxo_coins_status_check" CHECK ("status" in ('pending', 'spendable', 'spent', 'removed'))
);
--> statement-breakpoint
ALTER TABLE "utxo_coins" ADD CONSTRAINT "utxo_coins_currency_currencies_code_fk" FOREIGN KEY ("currency") REFERENCES "public"."currencies"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "utxo_coins" ADD CONSTRAINT "utxo_coins_chain_transaction_id_chain_transactions_id_fk" FOREIGN KEY ("chain_transaction_id") REFERENCES "public"."chain_transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "utxo_coins_outpoint_key" ON "utxo_coins" USING btree ("network","txid","vout");--> statement-breakpoint
CREATE UNIQUE INDEX "utxo_coins_chain_transaction_key" ON "utxo_coins" USING btree ("chain_transaction_id");--> statement-breakpoint
CREATE INDEX "utxo_coins_spendable_idx" ON "utxo_coins" USING btree ("network") WHERE "utxo_coins"."status" = 'spendable';
