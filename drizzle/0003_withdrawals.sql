CREATE TABLE "withdrawals" (
	"transaction_id" bigint PRIMARY KEY NOT NULL,
	"merchant_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"foreign_id_raw" jsonb NOT NULL,
	"source_currency" text NOT NULL,
	"target_currency" text NOT NULL,
	"principal" numeric(38, 8) NOT NULL,
	"sent_amount" numeric(38, 8) NOT NULL,
	"withdrawal_fee" numeric(38, 8) NOT NULL,
	"network_fee" numeric(38, 8) NOT NULL,
	"total_debit" numeric(38, 8) NOT NULL,
	"rate" numeric(38, 8),
	"mid_rate" numeric(38, 8),
	"spread_ppm" integer,
	"address" text NOT NULL,
	"tag" text,
	"sender_type" text NOT NULL,
	"sender_data" jsonb NOT NULL,
	"receiver_type" text NOT NULL,
	"receiver_data" jsonb,
	"chain_transaction_id" bigint,
	"txid" text,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"broadcast_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "chain_transactions" ADD COLUMN "risk_score" text;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_transaction_id_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_source_currency_currencies_code_fk" FOREIGN KEY ("source_currency") REFERENCES "public"."currencies"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_target_currency_currencies_code_fk" FOREIGN KEY ("target_currency") REFERENCES "public"."currencies"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "withdrawals_merchant_idx" ON "withdrawals" USING btree ("merchant_id");--> statement-breakpoint
CREATE INDEX "withdrawals_txid_idx" ON "withdrawals" USING btree ("txid");--> statement-breakpoint
CREATE INDEX "chain_transactions_txid_idx" ON "chain_transactions" USING btree ("txid");