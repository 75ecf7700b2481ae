-- Payouts on the UTXO chains (Bitcoin, Litecoin) from Kassa's own coins: each signed transaction is
-- stored before it is sent (a retry sends the same bytes), with the withdrawals it pays, the coins it
-- spends and the change it makes. A coin is taken by one payout under its row lock. A payout replaced
-- by fee keeps its earlier versions in `replaced`: whichever is mined settles it. One whose inputs the
-- chain spent elsewhere (a reorganisation took a deposit it spends) is an `incident`, never paid again.
CREATE TABLE "utxo_payouts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"network" text NOT NULL,
	"currency" text NOT NULL,
	"txid" text NOT NULL,
	"raw_transaction" text NOT NULL,
	"fee" numeric(78, 0) NOT NULL,
	"vsize" integer NOT NULL,
	"fee_rate" numeric(78, 0) NOT NULL,
	"status" text DEFAULT 'signed' NOT NULL,
	"block_height" bigint,
	"block_hash" text,
	"replaced" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp with time zone,
	CONSTRAINT "utxo_payouts_fee_check" CHECK ("fee" > 0),
	CONSTRAINT "utxo_payouts_status_check" CHECK ("status" in ('signed', 'confirmed', 'incident'))
);
--> statement-breakpoint
CREATE TABLE "utxo_payout_outputs" (
	"reference" text PRIMARY KEY NOT NULL,
	"payout_id" bigint NOT NULL,
	"vout" integer NOT NULL,
	"address" text NOT NULL,
	"base_amount" numeric(78, 0) NOT NULL,
	CONSTRAINT "utxo_payout_outputs_base_amount_check" CHECK ("base_amount" > 0)
);
--> statement-breakpoint
ALTER TABLE "utxo_payouts" ADD CONSTRAINT "utxo_payouts_currency_currencies_code_fk" FOREIGN KEY ("currency") REFERENCES "public"."currencies"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "utxo_payout_outputs" ADD CONSTRAINT "utxo_payout_outputs_payout_id_utxo_payouts_id_fk" FOREIGN KEY ("payout_id") REFERENCES "public"."utxo_payouts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "utxo_payouts_txid_key" ON "utxo_payouts" USING btree ("network","txid");--> statement-breakpoint
CREATE INDEX "utxo_payouts_open_idx" ON "utxo_payouts" USING btree ("network") WHERE "utxo_payouts"."status" = 'signed';--> statement-breakpoint
CREATE INDEX "utxo_payout_outputs_payout_idx" ON "utxo_payout_outputs" USING btree ("payout_id");--> statement-breakpoint
ALTER TABLE "utxo_coins" ALTER COLUMN "chain_transaction_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "utxo_coins" ADD COLUMN "spent_by_payout_id" bigint;--> statement-breakpoint
ALTER TABLE "utxo_coins" ADD COLUMN "change_of_payout_id" bigint;--> statement-breakpoint
ALTER TABLE "utxo_coins" ADD CONSTRAINT "utxo_coins_spent_by_payout_id_utxo_payouts_id_fk" FOREIGN KEY ("spent_by_payout_id") REFERENCES "public"."utxo_payouts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "utxo_coins" ADD CONSTRAINT "utxo_coins_change_of_payout_id_utxo_payouts_id_fk" FOREIGN KEY ("change_of_payout_id") REFERENCES "public"."utxo_payouts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chain_incidents" ADD COLUMN "utxo_payout_id" bigint;--> statement-breakpoint
ALTER TABLE "chain_incidents" ADD CONSTRAINT "chain_incidents_utxo_payout_id_utxo_payouts_id_fk" FOREIGN KEY ("utxo_payout_id") REFERENCES "public"."utxo_payouts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "chain_incidents_utxo_payout_key" ON "chain_incidents" USING btree ("kind","utxo_payout_id") WHERE "chain_incidents"."utxo_payout_id" is not null;
